// Proves: mdebug never writes into a FIFO planted at its name (the log
// file, a heap dump, the allocation records), whether or not something
// holds it open for reading: the open does not block (it used to hang the
// program forever), the file is refused with one line naming it and the
// reason, and the program carries on (a refused log file sends the reports
// to stderr). `timeout` only turns a regression into a failure instead of
// a hung suite. The clean run prints nothing.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %python %S/../../Inputs/exit_status.py timeout 300 %t log %t.d > %t.out 2>&1
// RUN: %FileCheck %s --check-prefix=LOG < %t.out
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %python %S/../../Inputs/exit_status.py timeout 300 %t dump %t.d 2>&1 | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %python %S/../../Inputs/exit_status.py timeout 300 %t dump %t.d reader 2>&1 | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %python %S/../../Inputs/exit_status.py timeout 300 %t record %t.d 2>&1 | %FileCheck %s --check-prefix=RECORD
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t clean %t.d 2>&1 | count 0
#include <stdio.h>
#include <sys/stat.h>

#include "Inputs/writers.h"

int main(int argc, char **argv) {
  char name[512];
  writer_name(argv[1], argv[2], name, sizeof(name));
  if (name[0] && mkfifo(name, 0666) != 0) {
    perror("mkfifo");
    return 98;
  }
  /* "reader": the FIFO has a reader (that never reads), so opening it for
   * writing succeeds at once; only looking at what was opened can tell. */
  if (argc > 3 && open(name, O_RDONLY | O_NONBLOCK) < 0) {
    perror("open");
    return 98;
  }
  return writer_run(argv[1], name);
}
// LOG: mdebug: refusing to write {{.*}}/log.{{[0-9]+}}: it is a FIFO, not a regular file; reporting to stderr
// LOG-NEXT: *** *** ***
// LOG-NEXT: mdebug: ERROR: double free in
// LOG: mdebug: SUMMARY: 1 error (1 double free)
// LOG-NEXT: exit status: 23
// DUMP: mdebug: refusing to write {{.*}}/dump: it is a FIFO, not a regular file
// DUMP-NEXT: mdebug_dump_heap returned -1
// DUMP-NEXT: exit status: 0
// RECORD: mdebug: refusing to write {{.*}}/rec.{{[0-9]+}}: it is a FIFO, not a regular file
// RECORD-NEXT: exit status: 0
