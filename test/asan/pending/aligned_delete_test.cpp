// Adapted from compiler-rt test/asan/TestCases/Linux/aligned_delete_test.cpp (over-aligned objects released by an operator delete of another alignment: one mode per mismatched call; the original ran them all in one recovering process).
// EXPECT: 1 new-delete type mismatch at 34
// EXPECT: 2 new-delete type mismatch at 35
// EXPECT: 3 new-delete type mismatch at 36
// EXPECT: 4 new-delete type mismatch at 37
// EXPECT: 5 new-delete type mismatch at 38
// EXPECT: 6 new-delete type mismatch at 39
// EXPECT: 7 new-delete type mismatch at 40
// EXPECT: 8 new-delete type mismatch at 41
// EXPECT: 9 new-delete type mismatch at 42
// EXPECT: 10 new-delete type mismatch at 43
// EXPECT: 11 new-delete type mismatch at 45
// EXPECT: clean clean
// CFLAGS: -std=c++17 -faligned-allocation -fsized-deallocation
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

template <typename T> inline T *break_optimization(T *arg) {
  __asm__ __volatile__("" : : "r"(arg) : "memory");
  return arg;
}

struct S12 { int a, b, c; };
struct alignas(128) S12_128 { int a, b, c; };
struct alignas(256) S12_256 { int a, b, c; };
struct alignas(512) S1024_512 { char a[1024]; };
struct alignas(1024) S1024_1024 { char a[1024]; };

int main(int argc, char **argv) {
  if (argc != 2) return 1;
  switch (atoi(argv[1])) {
  case 1: operator delete(break_optimization(new S12_128), std::nothrow); break;
  case 2: operator delete(break_optimization(new S12_128), sizeof(S12_128)); break;
  case 3: operator delete[](break_optimization(new S12_128[100]), std::nothrow); break;
  case 4: operator delete[](break_optimization(new S12_128[100]), sizeof(S12_128[100])); break;
  case 5: delete break_optimization(reinterpret_cast<S12 *>(new S12_256)); break;
  case 6: delete break_optimization(reinterpret_cast<S12_256 *>(new S12)); break;
  case 7: delete break_optimization(reinterpret_cast<S12_128 *>(new S12_256)); break;
  case 8: delete[] break_optimization(reinterpret_cast<S12 *>(new S12_256[100])); break;
  case 9: delete[] break_optimization(reinterpret_cast<S12_256 *>(new S12[100])); break;
  case 10: delete[] break_optimization(reinterpret_cast<S12_128 *>(new S12_256[100])); break;
  // ASan cannot tell alignments of 512 bytes and more apart.
  case 11: delete break_optimization(reinterpret_cast<S1024_512 *>(new S1024_1024)); break;
  default:
    delete break_optimization(new S12_128);
    delete[] break_optimization(new S12_256[100]);
    delete break_optimization(new S1024_1024);
    operator delete(break_optimization(new S12_128), std::align_val_t(128), std::nothrow);
    break;
  }
  fprintf(stderr, "Done\n");
  return 0;
}

