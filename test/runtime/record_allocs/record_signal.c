// Proves: with record_allocs, SIGRTMAX-18 makes the service thread write
// the records to record_allocs_file; the next signal writes only the calls
// made since (the file is rewritten); with nothing new at exit
// (record_allocs_on_exit) mdebug logs "No alloc entries to write." and
// writes no FILE.PID.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t %t.d/rec 2>&1 | %FileCheck %s --check-prefix=LOG
// RUN: %python %S/../../Inputs/record_check.py %t.d/rec.first | %FileCheck %s --check-prefix=FIRST
// RUN: %python %S/../../Inputs/record_check.py %t.d/rec.second | %FileCheck %s --check-prefix=SECOND
// RUN: %python %S/../../Inputs/exit_status.py ls %t.d | %FileCheck %s --check-prefix=FILES
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

static void say(const char *s) { write(2, s, strlen(s)); }

static void write_records(const char *file, const char *saved) {
  char to[4096];
  snprintf(to, sizeof(to), "%s.%s", file, saved);
  raise(SIGRTMAX - 18);
  if (!wait_for_stable_file(file) || rename(file, to) != 0)
    say("no record file\n");
}

int main(int argc, char **argv) {
  free(malloc(111));
  write_records(argv[1], "first");
  free(malloc(222));
  write_records(argv[1], "second");
  say("done\n");
  return 0;
}
// LOG: done
// LOG-NEXT: mdebug: No alloc entries to write.
// LOG-NOT: mdebug
// FIRST: T1 malloc [[P:p[0-9]+]] 111
// FIRST-NEXT: T1 free [[P]]
// FIRST-NEXT: records:
// SECOND: T1 malloc p1 222
// SECOND-NEXT: T1 free p1
// SECOND-NEXT: records: 2 threads: 1
// FILES: rec.first
// FILES-NEXT: rec.second
// FILES-NEXT: exit status: 0
