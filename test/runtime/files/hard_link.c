// Proves: mdebug writes no file that has another name (a hard link planted
// at its name, to a file that matters): the log file, a heap dump and the
// allocation records are refused with one line naming the file and the
// reason, and the linked file keeps its content (nothing is truncated before
// the checks). The clean run prints nothing.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %python %S/../../Inputs/exit_status.py %t log %t.d > %t.out 2>&1
// RUN: %FileCheck %s --check-prefix=LOG < %t.out
// RUN: %FileCheck %s --check-prefix=TARGET --input-file %t.d/target
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t dump %t.d 2>&1 | %FileCheck %s --check-prefix=DUMP
// RUN: %FileCheck %s --check-prefix=TARGET --input-file %t.d/target
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t record %t.d 2>&1 | %FileCheck %s --check-prefix=RECORD
// RUN: %FileCheck %s --check-prefix=TARGET --input-file %t.d/target
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t clean %t.d 2>&1 | count 0
#include <stdio.h>
#include <unistd.h>

#include "Inputs/writers.h"

int main(int argc, char **argv) {
  char name[512], target[512];
  writer_name(argv[1], argv[2], name, sizeof(name));
  snprintf(target, sizeof(target), "%s/target", argv[2]);
  write_text(target, "precious\n");
  if (name[0] && link(target, name) != 0) {
    perror("link");
    return 98;
  }
  return writer_run(argv[1], name);
}
// LOG: mdebug: refusing to write {{.*}}/log.{{[0-9]+}}: it has 2 hard links (another name for the same file); reporting to stderr
// LOG-NEXT: *** *** ***
// LOG-NEXT: mdebug: ERROR: double free in
// LOG: mdebug: SUMMARY: 1 error (1 double free)
// LOG-NEXT: exit status: 23
// DUMP: mdebug: refusing to write {{.*}}/dump: it has 2 hard links (another name for the same file)
// DUMP-NEXT: mdebug_dump_heap returned -1 (Operation not permitted)
// RECORD: mdebug: refusing to write {{.*}}/rec.{{[0-9]+}}: it has 2 hard links (another name for the same file)
// TARGET: {{^}}precious{{$}}
// TARGET-NOT: {{.}}
