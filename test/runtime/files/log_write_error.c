// Proves: a report that cannot be written to the log_path file (here the
// file size limit, RLIMIT_FSIZE with SIGXFSZ ignored, so write fails with
// EFBIG as on a full disk it fails with ENOSPC) is not lost: stderr says
// once which file failed and why, and that report and every later one,
// and the summary, go to stderr. A limit of 0 fails the first line; a
// limit of 100 bytes fails mid-report (the report goes on on stderr). The
// clean run writes nothing anywhere. (stderr is a pipe: the size limit
// holds for every regular file, stderr too.)
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t 0 2>&1 | %FileCheck %s
// RUN: cat %t.d/log.* | count 0
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t 100 2>&1 | %FileCheck %s --check-prefix=MID
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %t 0 clean 2>&1 | count 0
// RUN: ls %t.d | count 0
// CHECK: mdebug: cannot write the log_path file {{.*}}.d/log.{{[0-9]+}}: File too large; reporting to stderr from here on
// CHECK-NOT: cannot write
// CHECK: mdebug: ERROR: double free
// CHECK: +++ ALLOCATION {{.*}} DOUBLE FREE
// CHECK: mdebug: ERROR: double free
// CHECK: mdebug: SUMMARY: 2 errors
// MID: mdebug: cannot write the log_path file {{.*}}: File too large; reporting to stderr from here on
// MID-NOT: cannot write
// MID: mdebug: ERROR: double free
// MID: mdebug: SUMMARY: 2 errors
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
  struct rlimit rl = {(rlim_t)atoi(argv[1]), RLIM_INFINITY};
  signal(SIGXFSZ, SIG_IGN);
  setrlimit(RLIMIT_FSIZE, &rl);
  if (argc > 2 && strcmp(argv[2], "clean") == 0) {
    free(malloc(10));
    return 0;
  }
  for (int i = 0; i < 2; i++) {
    char *volatile p = malloc(10);
    free(p);
    free(p);
  }
  return 0;
}
