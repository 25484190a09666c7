// Proves: several source files in one command are all instrumented and linked with the runtime: leaks from both files are reported with their own sites.
// RUN: %mdebug_clang %s %S/Inputs/multi-helper.c -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// The same with -c for both files at once, then a link of the two objects.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %mdebug_clang -c %s %S/Inputs/multi-helper.c
// RUN: llvm-nm multiple-sources.o multi-helper.o | %FileCheck %s --check-prefix=NM
// RUN: %mdebug_clang multiple-sources.o multi-helper.o -o both
// RUN: %not ./both 2>&1 | %FileCheck %s
// Clean case: freeing both blocks, nothing is reported.
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

char *helper_make(void);

int main(int argc, char **argv) {
  char *mine = malloc(40);
  char *theirs = helper_make();
  if (argc > 1) {
    free(mine);
    free(theirs);
  }
  return 0;
}
// CHECK: mdebug: 64 bytes leaked in 2 blocks
// CHECK-DAG: allocated by malloc at {{.*}}multiple-sources.c:17:16 (main)
// CHECK-DAG: allocated by calloc at {{.*}}multi-helper.c:5:34 (helper_make)
// CHECK: mdebug: SUMMARY: 0 errors, 64 bytes leaked in 2 blocks
// NM: multiple-sources.o:
// NM: U __mdebug_malloc
// NM: multi-helper.o:
// NM: U __mdebug_calloc
// CLEAN-NOT: mdebug
