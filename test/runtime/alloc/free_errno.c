// Proves: free leaves errno as it was, both on a normal free and when it
// reports an error (here a double free).
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(10);
  errno = 1234;
  free(p);
  int after_free = errno;
  if (argc == 1)
    free(p);
  fprintf(stderr, "errno after free %d, after second call %d\n", after_free,
          errno);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}free_errno.c:11:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}free_errno.c:13:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}free_errno.c:16:5 (main)
// CHECK: errno after free 1234, after second call 1234
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: errno after free 1234, after second call 1234
// CLEAN-NOT: mdebug
