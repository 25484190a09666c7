// Proves: suppression patterns are matched without recursion and without
// blow-up: a line of 400,000 '*' then "quietly$" (which used to overflow
// the stack) suppresses the leak from the function whose name ends so (the
// '$' keeps it off a source path or program name with those letters), a line
// with many stars that cannot match a long name is given up on at once, and
// '^' / '$' anchor a pattern to the name's start and end ("^lose_con" and
// "fig$" match lose_config only, "^config" matches nothing), so only the
// leak from lose_cache is reported. The clean run loses only what the file
// suppresses: no report, exit status 0.
// RUN: %python -c "print('leak:' + '*' * 400000 + 'quietly$')" > %t.supp
// RUN: %python -c "print('leak:' + '*a' * 40 + 'z')" >> %t.supp
// RUN: echo "leak:^config" >> %t.supp
// RUN: echo "leak:^lose_con" >> %t.supp
// RUN: echo "leak:fig$" >> %t.supp
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static void lose_quietly(void) {
  char *p = malloc(50);
  memset(p, 'q', 50);
}

static void lose_config(void) {
  char *p = malloc(70);
  memset(p, 'c', 70);
}

static void
lose_cache_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(void) {
  char *p = malloc(90);
  memset(p, 'k', 90);
}

int main(int argc, char **argv) {
  lose_quietly();
  lose_config();
  if (argc == 1)
    lose_cache_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa();
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 90 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 90 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppress_many_stars.c:33:13 (lose_cache_aaaa{{a*}})
// CHECK-NEXT: +++ [[PROG]] leaked block of size 90 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 90 bytes leaked in 1 block
// CLEAN-NOT: mdebug
