// Adapted from compiler-rt test/asan/TestCases/time_interceptor.cpp (time() storing into a freed block).
// EXPECT: - use after free at 12
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  time_t *tm = (time_t *)malloc(sizeof(time_t));
  if (argc == 1)
    free(tm);
  time_t t = time(tm);
  printf("Time: %s\n", ctime(&t));
  if (argc > 1)
    free(tm);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: time_interceptor.cpp:12:
// CLEAN-NOT: mdebug
