// Proves: an explicit -x LANG before the sources does not apply to the runtime the wrapper appends when linking: `mdebug-clang -x c file -o prog` builds a working program (clang would otherwise read libmdebug-rt.a as C source).
// RUN: %mdebug_clang -x c %s -o %t 2>&1 | count 0
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: cp %s %t.txt
// RUN: %mdebug_clang -x c %t.txt -o %t.2
// RUN: %not %t.2 2>&1 | %FileCheck %s
// RUN: %mdebug_clangxx -x c++ %s -o %t.3
// RUN: %not %t.3 2>&1 | %FileCheck %s
// Clean case: the same program without -x.
// RUN: %mdebug_clang %s -o %t.4
// RUN: %t.4 clean 2>&1 | count 0
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = (char *)malloc(5);
  if (argc > 1)
    free(p);
  return 0;
}
// CHECK: mdebug: 5 bytes leaked in 1 block
// CHECK: allocated by malloc at {{.*}}:15:21 (main)
