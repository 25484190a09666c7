// Proves: strdup and strndup are allocation sites of their own: a leaked
// copy is reported as "allocated by strdup/strndup at FILE:LINE:COL", with
// the size of the copy (strndup's is bounded by n).
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *name = "configuration";
  char *copy = strdup(name);
  char *prefix = strndup(name, 6);
  if (strcmp(copy, name) != 0 || strcmp(prefix, "config") != 0)
    return 2;
  if (argc > 1) {
    free(copy);
    free(prefix);
  }
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 21 bytes leaked in 2 blocks
// CHECK-NEXT: 14 bytes in 1 block:
// CHECK-NEXT:   allocated by strdup at {{.*}}strdup_site.c:12:16 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 14 at 0x{{[0-9a-f]+}} (leak 1 of 2)
// CHECK-NEXT: 7 bytes in 1 block:
// CHECK-NEXT:   allocated by strndup at {{.*}}strdup_site.c:13:18 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 7 at 0x{{[0-9a-f]+}} (leak 2 of 2)
// CHECK: mdebug: SUMMARY: 0 errors, 21 bytes leaked in 2 blocks
// CLEAN-NOT: mdebug
