// Proves: mdebug writes no file that another user owns, even one that user
// made world-writable at the predictable name before the run: the log file,
// a heap dump and the allocation records are refused with one line naming
// the file, its owner and this process's uid, and the file keeps its
// content (it is not truncated before the check). Needs root to give the
// planted file to another user (uid 65534). The clean run prints nothing.
// REQUIRES: root
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %python %S/../../Inputs/exit_status.py %t log %t.d > %t.out 2>&1
// RUN: %FileCheck %s --check-prefix=LOG < %t.out
// RUN: cat %t.d/* > %t.all
// RUN: %FileCheck %s --check-prefix=PLANTED < %t.all
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t dump %t.d 2>&1 | %FileCheck %s --check-prefix=DUMP
// RUN: cat %t.d/* > %t.all
// RUN: %FileCheck %s --check-prefix=PLANTED < %t.all
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t record %t.d 2>&1 | %FileCheck %s --check-prefix=RECORD
// RUN: cat %t.d/* > %t.all
// RUN: %FileCheck %s --check-prefix=PLANTED < %t.all
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t clean %t.d 2>&1 | count 0
#include <stdio.h>
#include <sys/stat.h>

#include "Inputs/writers.h"

int main(int argc, char **argv) {
  char name[512];
  writer_name(argv[1], argv[2], name, sizeof(name));
  if (name[0]) {
    /* What another user could leave at the name: a world-writable file of
     * theirs. */
    write_text(name, "not yours\n");
    if (chown(name, 65534, 65534) != 0 || chmod(name, 0666) != 0) {
      perror("chown");
      return 98;
    }
  }
  return writer_run(argv[1], name);
}
// LOG: mdebug: refusing to write {{.*}}/log.{{[0-9]+}}: it belongs to uid 65534, not to this process (uid 0); reporting to stderr
// LOG-NEXT: *** *** ***
// LOG-NEXT: mdebug: ERROR: double free in
// LOG: mdebug: SUMMARY: 1 error (1 double free)
// LOG-NEXT: exit status: 23
// DUMP: mdebug: refusing to write {{.*}}/dump: it belongs to uid 65534, not to this process (uid 0)
// DUMP-NEXT: mdebug_dump_heap returned -1 (Operation not permitted)
// RECORD: mdebug: refusing to write {{.*}}/rec.{{[0-9]+}}: it belongs to uid 65534, not to this process (uid 0)
// PLANTED: {{^}}not yours{{$}}
// PLANTED-NOT: {{.}}
