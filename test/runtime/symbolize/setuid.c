// Proves: a setuid-root program run by another user (AT_SECURE) never
// starts the llvm-symbolizer helper (it would run with the program's
// privileges and the user's environment): its frames keep the symbol
// table's names ("in FUNCTION+0xOFF"). Run normally, the same program's
// frames name their source lines.
// REQUIRES: setuid
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.suid && mkdir %t.suid && chmod 755 %t.suid
// RUN: cp %t %t.suid/prog && chmod 4755 %t.suid/prog
// RUN: %python %S/../../Inputs/exit_status.py setpriv --reuid=65534 --regid=65534 --clear-groups %t.suid/prog 2>&1 | %FileCheck %s --check-prefix=SUID
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=PLAIN
#include <stdlib.h>

const char *__mdebug_default_options(void) { return "backtrace"; }

__attribute__((noinline)) char *make(void) { return malloc(24); }

int main(void) {
  char *p = make();
  p[0] = 0;
  return 0; /* leaked */
}
// SUID: Direct leak of 24 bytes in 1 block:
// SUID: Backtrace at time of allocation:
// SUID-NEXT: #00 pc 0x{{[0-9a-f]+}} in make+0x{{[0-9a-f]+}} ({{.*}}prog){{$}}
// SUID-NEXT: #01 pc 0x{{[0-9a-f]+}} in main+0x{{[0-9a-f]+}} ({{.*}}prog){{$}}
// SUID: exit status: 23
// PLAIN: Direct leak of 24 bytes in 1 block:
// PLAIN: Backtrace at time of allocation:
// PLAIN-NEXT: #00 pc 0x{{[0-9a-f]+}} in make {{.*}}setuid.c:16:{{[0-9]+}} ({{.*}}setuid.c.tmp){{$}}
// PLAIN-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}setuid.c:19:{{[0-9]+}} ({{.*}}setuid.c.tmp){{$}}
// PLAIN: exit status: 23
