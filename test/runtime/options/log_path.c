// Proves: log_path=PATH sends reports to PATH.PID (nothing to stderr), that a
// forked child writes to its own PATH.CHILDPID, and that an unwritable path
// falls back to stderr with a message naming the file and the reason.
// RUN: %mdebug_clang %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t 2> %t.err
// RUN: count 0 < %t.err
// RUN: ls %t.d | count 2
// RUN: cat %t.d/log.* | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="log_path=/nonexistent/dir/log" %not %t 2>&1 | %FileCheck %s --check-prefix=FALLBACK
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  char *p = malloc(8);
  free(p);
  pid_t child = fork();
  free(p); /* one double free in each process */
  if (child == 0)
    _exit(0);
  waitpid(child, NULL, 0);
  return 0;
}
// CHECK-DAG: DOUBLE FREE (free)
// CHECK-DAG: DOUBLE FREE (free)
// CHECK-DAG: mdebug: SUMMARY: 1 error (1 double free)
// FALLBACK: mdebug: cannot open log_path file /nonexistent/dir/log.{{[0-9]+}}: No such file or directory; reporting to stderr
// FALLBACK: DOUBLE FREE (free)
