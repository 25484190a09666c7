// Proves: blocks cross the boundary with uninstrumented code cleanly (a
// block the program allocates is freed by the library and vice versa), and
// a block freed on both sides is a double free naming the program's free
// by file:line:col and the library's by "pc ... libplain.so (plain_free+N)".
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -g -shared -fPIC %S/../../Inputs/plain_lib.c -o %t.dir/libplain.so
// RUN: %mdebug_clang -g %s -L%t.dir -lplain -Wl,-rpath,%t.dir -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

void *plain_alloc(size_t n);
void plain_free(void *p);

int main(int argc, char **argv) {
  char *mine = malloc(64);
  strcpy(mine, "allocated by the program");
  plain_free(mine);
  char *theirs = plain_alloc(96);
  strcpy(theirs, "allocated by the library");
  free(theirs);
  if (argc == 1)
    plain_free(theirs);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 96 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in plain_alloc{{[+ ].*}} ({{.*}}.dir/libplain.so)
// CHECK-NEXT:   freed by free at {{.*}}cross_free.c:22:3 (main)
// CHECK-NEXT:   freed again by free at pc 0x{{[0-9a-f]+}} in plain_free{{[+ ].*}} ({{.*}}.dir/libplain.so)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
