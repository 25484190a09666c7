// Proves: in a setuid-root program run by another user (AT_SECURE),
// MDEBUG_OPTIONS is ignored with one line saying so: the user cannot make
// the program create files as root (log_path, record and heap dump files),
// nor read a root-only file through suppressions= (whose lines would be
// echoed), nor turn on verbose; reports still go to stderr and the checks
// of the defaults still run. The clean run prints nothing.
// REQUIRES: setuid
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.suid %t.w && mkdir %t.suid %t.w
// RUN: chmod 755 %t.suid
// RUN: chmod 700 %t.w
// RUN: cp %t %t.suid/prog
// RUN: chmod 4755 %t.suid/prog
// RUN: echo "root-only line" > %t.w/secret
// RUN: env MDEBUG_OPTIONS="log_path=%t.w/log record_allocs record_allocs_on_exit record_allocs_file=%t.w/rec backtrace backtrace_dump_on_exit backtrace_dump_prefix=%t.w/heap suppressions=%t.w/secret verbose" %not setpriv --reuid=65534 --regid=65534 --clear-groups %t.suid/prog bug > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: ls %t.w | %FileCheck %s --check-prefix=FILES
// RUN: setpriv --reuid=65534 --regid=65534 --clear-groups %t.suid/prog clean 2>&1 | count 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

void *kept;

int main(int argc, char **argv) {
  if (strcmp(argv[1], "bug") != 0)
    return 0;
  fprintf(stderr, "AT_SECURE %lu, uid %d, euid %d\n", getauxval(AT_SECURE),
          (int)getuid(), (int)geteuid());
  char *volatile p = malloc(8);
  free(p);
  free(p);
  kept = malloc(24);
  kept = NULL;
  return 0;
}
// CHECK-NOT: root-only line
// CHECK-NOT: options in force
// CHECK: mdebug: MDEBUG_OPTIONS ignored in a setuid/setgid program (AT_SECURE)
// CHECK-NEXT: AT_SECURE 1, uid 65534, euid 0
// CHECK-NEXT: *** *** ***
// CHECK-NEXT: mdebug: ERROR: double free in prog (pid
// CHECK: Direct leak of 24 bytes in 1 block:
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 24 bytes leaked in 1 block
// FILES: {{^}}secret{{$}}
// FILES-NOT: {{.}}
