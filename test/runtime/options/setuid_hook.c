// Proves: in a setuid-root program run by another user (AT_SECURE), the
// program's own __mdebug_default_options() still sets checks (backtrace,
// exitcode=7, ...) but not files: its log_path, record_allocs_file,
// backtrace_dump_prefix and suppressions are dropped with one line, the
// records and heap dump it asks for at exit are refused (one line each, the
// process writes no file), and the signal triggers are not armed (the user
// may signal the process), with one line. Run normally (not setuid), the
// same options do write their files there and print nothing.
// REQUIRES: setuid
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.suid %t.plain && mkdir %t.suid %t.plain
// RUN: chmod 755 %t.suid
// RUN: cp %t %t.suid/prog
// RUN: chmod 4755 %t.suid/prog
// RUN: echo "leak:main" > %t.suid/supp
// RUN: %python %S/../../Inputs/exit_status.py setpriv --reuid=65534 --regid=65534 --clear-groups %t.suid/prog > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: ls %t.suid | %FileCheck %s --check-prefix=FILES
// RUN: cp %t %t.plain/prog
// RUN: echo "leak:main" > %t.plain/supp
// RUN: %python %S/../../Inputs/exit_status.py %t.plain/prog 2>&1 | %FileCheck %s --check-prefix=PLAIN
// RUN: ls %t.plain | %FileCheck %s --check-prefix=PLAIN-FILES
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* Paths next to the program, which only root may create files in. */
const char *__mdebug_default_options(void) {
  static char opts[2048];
  char dir[1024];
  ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
  if (n <= 0)
    return "";
  dir[n] = '\0';
  *strrchr(dir, '/') = '\0';
  snprintf(opts, sizeof(opts),
           "backtrace backtrace_dump_on_exit record_allocs "
           "record_allocs_on_exit check_unreachable_on_signal "
           "log_allocator_stats_on_signal exitcode=7 log_path=%s/hook "
           "record_allocs_file=%s/rec backtrace_dump_prefix=%s/heap "
           "suppressions=%s/supp",
           dir, dir, dir, dir);
  return opts;
}

void *kept;

int main(void) {
  struct sigaction sa;
  sigaction(SIGRTMAX - 16, NULL, &sa);
  fprintf(stderr, "AT_SECURE %lu, SIGRTMAX-16 %s\n", getauxval(AT_SECURE),
          sa.sa_handler == SIG_DFL ? "not armed" : "armed");
  kept = malloc(24);
  kept = NULL;
  return 0;
}
// CHECK: mdebug: __mdebug_default_options(): suppressions, backtrace_dump_prefix, record_allocs_file, log_path ignored in a setuid/setgid program (AT_SECURE): it writes no file and reads none an option names
// CHECK-NEXT: mdebug: signals SIGRTMAX-19..-14 and -12 are not armed in a setuid/setgid program (AT_SECURE): the user running it may send them
// CHECK-NEXT: AT_SECURE 1, SIGRTMAX-16 not armed
// CHECK: Direct leak of 24 bytes in 1 block:
// CHECK: Backtrace at time of allocation:
// CHECK: mdebug: refusing to write /tmp/record_allocs.[[PID:[0-9]+]].exit.txt: a setuid/setgid program (AT_SECURE) writes no files
// CHECK-NEXT: mdebug: refusing to write /tmp/backtrace_heap.[[PID]].exit.txt: a setuid/setgid program (AT_SECURE) writes no files
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 24 bytes leaked in 1 block
// CHECK-NEXT: exit status: 7
// FILES: {{^}}prog{{$}}
// FILES-NEXT: {{^}}supp{{$}}
// FILES-NOT: {{.}}
// PLAIN: AT_SECURE 0, SIGRTMAX-16 armed
// PLAIN-NEXT: exit status: 0
// PLAIN-FILES: {{^}}heap.{{[0-9]+}}.exit.txt{{$}}
// PLAIN-FILES-NEXT: {{^}}hook.{{[0-9]+}}{{$}}
// PLAIN-FILES-NEXT: {{^}}prog{{$}}
// PLAIN-FILES-NEXT: {{^}}rec.{{[0-9]+}}{{$}}
// PLAIN-FILES-NEXT: {{^}}supp{{$}}
