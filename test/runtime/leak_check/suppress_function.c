// Proves: a `leak:FUNCTION` line in the suppressions file hides the leaks
// whose allocation site is in that function (they are neither listed nor
// counted), while other leaks are still reported. The clean run leaks only
// the suppressed block: no report, exit status 0.
// RUN: echo "leak:lose_config" > %t.supp
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static char *lose_config(void) {
  char *config = malloc(70);
  memset(config, 'c', 70);
  return NULL;
}

static char *make_cache(void) {
  char *cache = malloc(90);
  memset(cache, 'k', 90);
  return cache;
}

int main(int argc, char **argv) {
  lose_config();
  char *cache = make_cache();
  if (argc > 1)
    free(cache);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 90 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 90 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppress_function.c:19:17 (make_cache)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 90 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 90 bytes leaked in 1 block
// CLEAN-NOT: mdebug
