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

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -std=c++17 -faligned-allocation -fsized-deallocation %s -o %t
// RUN: %not %t 1 2>&1 | %FileCheck %s --check-prefix=M-1
// RUN: %not %t 2 2>&1 | %FileCheck %s --check-prefix=M-2
// RUN: %not %t 3 2>&1 | %FileCheck %s --check-prefix=M-3
// RUN: %not %t 4 2>&1 | %FileCheck %s --check-prefix=M-4
// RUN: %not %t 5 2>&1 | %FileCheck %s --check-prefix=M-5
// RUN: %not %t 6 2>&1 | %FileCheck %s --check-prefix=M-6
// RUN: %not %t 7 2>&1 | %FileCheck %s --check-prefix=M-7
// RUN: %not %t 8 2>&1 | %FileCheck %s --check-prefix=M-8
// RUN: %not %t 9 2>&1 | %FileCheck %s --check-prefix=M-9
// RUN: %not %t 10 2>&1 | %FileCheck %s --check-prefix=M-10
// RUN: %not %t 11 2>&1 | %FileCheck %s --check-prefix=M-11
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-1: mdebug: ERROR: alloc-dealloc mismatch in
// M-1-NOT: *** ***
// M-1: aligned_delete_test.cpp:34:
// M-2: mdebug: ERROR: alloc-dealloc mismatch in
// M-2-NOT: *** ***
// M-2: aligned_delete_test.cpp:35:
// M-3: mdebug: ERROR: alloc-dealloc mismatch in
// M-3-NOT: *** ***
// M-3: aligned_delete_test.cpp:36:
// M-4: mdebug: ERROR: alloc-dealloc mismatch in
// M-4-NOT: *** ***
// M-4: aligned_delete_test.cpp:37:
// M-5: mdebug: ERROR: alloc-dealloc mismatch in
// M-5-NOT: *** ***
// M-5: aligned_delete_test.cpp:38:
// M-6: mdebug: ERROR: alloc-dealloc mismatch in
// M-6-NOT: *** ***
// M-6: aligned_delete_test.cpp:39:
// M-7: mdebug: ERROR: new-delete size mismatch in
// M-7-NOT: *** ***
// M-7: aligned_delete_test.cpp:40:
// M-8: mdebug: ERROR: alloc-dealloc mismatch in
// M-8-NOT: *** ***
// M-8: aligned_delete_test.cpp:41:
// M-9: mdebug: ERROR: alloc-dealloc mismatch in
// M-9-NOT: *** ***
// M-9: aligned_delete_test.cpp:42:
// M-10: mdebug: ERROR: new-delete alignment mismatch in
// M-10-NOT: *** ***
// M-10: aligned_delete_test.cpp:43:
// M-11: mdebug: ERROR: new-delete alignment mismatch in
// M-11-NOT: *** ***
// M-11: aligned_delete_test.cpp:45:
// CLEAN-NOT: mdebug
