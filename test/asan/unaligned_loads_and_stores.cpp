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
    case 'c': res = load(uint64_t, x + 8) == 0; store(uint32_t, x + 12, 0); break;
  }
  delete[] x;
  return res & 1;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t A 2>&1 | %FileCheck %s --check-prefix=M-A
// RUN: %not %t B 2>&1 | %FileCheck %s --check-prefix=M-B
// RUN: %not %t C 2>&1 | %FileCheck %s --check-prefix=M-C
// RUN: %not %t D 2>&1 | %FileCheck %s --check-prefix=M-D
// RUN: %not %t E 2>&1 | %FileCheck %s --check-prefix=M-E
// RUN: %not %t K 2>&1 | %FileCheck %s --check-prefix=M-K
// RUN: %not %t L 2>&1 | %FileCheck %s --check-prefix=M-L
// RUN: %not %t M 2>&1 | %FileCheck %s --check-prefix=M-M
// RUN: %not %t N 2>&1 | %FileCheck %s --check-prefix=M-N
// RUN: %not %t O 2>&1 | %FileCheck %s --check-prefix=M-O
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-A: mdebug: ERROR: heap buffer overflow in
// M-A-NOT: *** ***
// M-A: unaligned_loads_and_stores.cpp:27:
// M-B: mdebug: ERROR: heap buffer overflow in
// M-B-NOT: *** ***
// M-B: unaligned_loads_and_stores.cpp:28:
// M-C: mdebug: ERROR: heap buffer overflow in
// M-C-NOT: *** ***
// M-C: unaligned_loads_and_stores.cpp:29:
// M-D: mdebug: ERROR: heap buffer overflow in
// M-D-NOT: *** ***
// M-D: unaligned_loads_and_stores.cpp:30:
// M-E: mdebug: ERROR: heap buffer overflow in
// M-E-NOT: *** ***
// M-E: unaligned_loads_and_stores.cpp:31:
// M-K: mdebug: ERROR: heap buffer overflow in
// M-K-NOT: *** ***
// M-K: unaligned_loads_and_stores.cpp:32:
// M-L: mdebug: ERROR: heap buffer overflow in
// M-L-NOT: *** ***
// M-L: unaligned_loads_and_stores.cpp:33:
// M-M: mdebug: ERROR: heap buffer overflow in
// M-M-NOT: *** ***
// M-M: unaligned_loads_and_stores.cpp:34:
// M-N: mdebug: ERROR: heap buffer overflow in
// M-N-NOT: *** ***
// M-N: unaligned_loads_and_stores.cpp:35:
// M-O: mdebug: ERROR: heap buffer overflow in
// M-O-NOT: *** ***
// M-O: unaligned_loads_and_stores.cpp:36:
// CLEAN-NOT: mdebug
