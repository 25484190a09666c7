// Proves: a `leak:*FILE.c` line in the suppressions file hides the leaks
// whose allocation site is in that source file (here a second file of the
// program), while leaks from the program's other files are still reported.
// The clean run leaks only the suppressed block: no report, exit status 0.
// RUN: echo "leak:*leak_check_other.c" > %t.supp
// RUN: %mdebug_clang -g %s %S/../../Inputs/leak_check_other.c -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

void *other_file_buffer(size_t n, int keep);

int main(int argc, char **argv) {
  other_file_buffer(130, 0);
  char *mine = malloc(140);
  memset(mine, 'm', 140);
  if (argc > 1)
    free(mine);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 140 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 140 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppress_file.c:16:16 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 140 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 140 bytes leaked in 1 block
// CLEAN-NOT: mdebug
