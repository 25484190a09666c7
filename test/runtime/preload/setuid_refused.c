// Proves: mdebug-run on a setuid program the dynamic linker would start in
// secure mode (owned by another user than the caller) says in one line that
// it runs it without mdebug (LD_PRELOAD would be dropped), and runs it
// unchanged.
// REQUIRES: root
// RUN: rm -rf %t.dir && mkdir %t.dir && chmod 755 %t.dir
// RUN: %clang %s -o %t.dir/suid
// RUN: chown 65534 %t.dir/suid && chmod 4755 %t.dir/suid
// RUN: %python %S/../../Inputs/exit_status.py %mdebug_run %t.dir/suid 2>&1 | %FileCheck %s
#include <stdio.h>
int main(void) {
  printf("setuid program\n");
  return 0;
}
// CHECK: mdebug-run: {{.*}}suid: it is setuid: the dynamic linker starts it in secure mode, where it ignores LD_PRELOAD; running it without mdebug
// CHECK-NEXT: setuid program
// CHECK-NEXT: exit status: 0
// CHECK-NOT: mdebug
