// Adapted from compiler-rt test/asan/TestCases/unaligned_loads_and_stores.cpp (unaligned 2-, 4- and 8-byte loads and stores that run past new char[16]; memcpy into a local stands for ASan's __sanitizer_unaligned_* calls, and delete[] for the original's delete of new[]).
// EXPECT: A heap buffer overflow at 27
// EXPECT: B heap buffer overflow at 28
// EXPECT: C heap buffer overflow at 29
// EXPECT: D heap buffer overflow at 30
// EXPECT: E heap buffer overflow at 31
// EXPECT: K heap buffer overflow at 32
// EXPECT: L heap buffer overflow at 33
// EXPECT: M heap buffer overflow at 34
// EXPECT: N heap buffer overflow at 35
// EXPECT: O heap buffer overflow at 36
// EXPECT: clean clean
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Macros, not functions, so that the access is on the line of its case.
#define load(T, p) ({ T v_; memcpy(&v_, (p), sizeof v_); v_; })
#define store(T, p, v) ({ T v_ = (v); memcpy((p), &v_, sizeof v_); })

int main(int argc, char **argv) {
  if (argc != 2) return 1;
  char *x = new char[16];
  memset(x, 0xab, 16);
  int res = 1;
  switch (argv[1][0]) {
    case 'A': res = load(uint16_t, x + 15); break;
    case 'B': res = load(uint32_t, x + 14); break;
    case 'C': res = load(uint32_t, x + 13); break;
    case 'D': res = load(uint64_t, x + 15); break;
    case 'E': res = load(uint64_t, x + 9); break;
    case 'K': store(uint16_t, x + 15, 0); break;
    case 'L': store(uint32_t, x + 15, 0); break;
    case 'M': store(uint32_t, x + 13, 0); break;
    case 'N': store(uint64_t, x + 10, 0); break;
    case 'O': store(uint64_t, x + 14, 0); break;
    case 'c': res = load(uint64_t, x + 8); store(uint32_t, x + 12, 0); break;
  }
  delete[] x;
  return res & 1;
}
