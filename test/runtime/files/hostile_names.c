// Proves: names from outside cannot forge or garble what mdebug writes. The
// source file is named (#line) "evil\nmdebug: SUMMARY: 0 errors" with an
// escape byte and a backslash, and the program runs under a name with a
// newline and an escape byte: every output shows them escaped (md_escape's
// \n, \xNN, \\; %XX in profiles and the sites line) and holds no raw
// control byte and no forged summary line - the stderr report with its
// frames, the log_path file, the heap dump (bt_info, sites, MAPS), the
// profile, and mdebug-report's text and CSV; mdebug-report reads the dump
// and the profile without error and names the frames' functions.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_full profile_prefix=%t.d/prof" %not %t %t.d 2> %t.d/stderr
// RUN: %FileCheck %s --input-file %t.d/stderr
// RUN: %python %S/../../tools/Inputs/no_raw_text.py %t.d/stderr %t.d/dump.txt %t.d/prof.*.mdprof
// RUN: %FileCheck %s --check-prefix=DUMP --input-file %t.d/dump.txt
// RUN: %python %S/../../Inputs/heap_dump_check.py %t.d/dump.txt | %FileCheck %s --check-prefix=VALID
// RUN: %mdebug_report --report=alloc-points %t.d/dump.txt > %t.d/report.txt
// RUN: %FileCheck %s --check-prefix=REPORT --input-file %t.d/report.txt
// RUN: %mdebug_report --report=alloc-points --format=csv %t.d/dump.txt > %t.d/report.csv
// RUN: %FileCheck %s --check-prefix=CSV --input-file %t.d/report.csv
// RUN: %mdebug_report --report=alloc-points %t.d/prof.*.mdprof > %t.d/profile.txt
// RUN: %FileCheck %s --check-prefix=PROFILE --input-file %t.d/profile.txt
// RUN: %python %S/../../tools/Inputs/no_raw_text.py %t.d/report.txt %t.d/report.csv %t.d/profile.txt
// RUN: env MDEBUG_OPTIONS="backtrace log_path=%t.d/log" %not %t %t.d 2>&1 | count 0
// RUN: cat %t.d/log.* | %FileCheck %s
// RUN: %python %S/../../tools/Inputs/no_raw_text.py %t.d/log.*
// The clean run: no report at all.
// RUN: %t %t.d clean 2>&1 | count 0
//
// CHECK: mdebug: ERROR: double free in ev\nmdebug: SUMMARY: 0 errors\x1b[2J (pid
// CHECK: allocated by malloc at {{.*}}evil\nmdebug: SUMMARY: 0 errors\x1b[2J\\n.c:7:{{[0-9]+}} (make) as char
// CHECK: Backtrace at time of allocation:
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in make{{.*}} ({{.*}}/ev\nmdebug: SUMMARY: 0 errors\x1b[2J)
// CHECK: Direct leak of 24 bytes in 1 block:
// CHECK-NEXT: allocated by malloc at {{.*}}evil\nmdebug: SUMMARY: 0 errors\x1b[2J\\n.c:7:{{[0-9]+}} (make) as char
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 24 bytes leaked in 1 block
//
// DUMP: bt_info {"{{.*}}/ev\nmdebug: SUMMARY: 0 errors\x1b[2J" {{[0-9a-f]+}} "make"
// DUMP: sites {1 {{[0-9a-f]+}} malloc {{.*}}evil%0Amdebug:%20SUMMARY:%200%20errors%1B[2J\n.c 7 {{[0-9]+}} make char}
// DUMP: MAPS
// DUMP: {{.*}}/ev\012mdebug: SUMMARY: 0 errors\x1b[2J
// VALID: OK
// REPORT: malloc at {{.*}}evil\nmdebug: SUMMARY: 0 errors\x1b[2J\\n.c:7:{{[0-9]+}} (make) as char
// REPORT-NEXT: #00 pc 0x{{[0-9a-f]+}} in make+0x{{[0-9a-f]+}} ({{.*}}ev\nmdebug: SUMMARY: 0 errors\x1b[2J)
// CSV: ,malloc at {{.*}}evil\nmdebug: SUMMARY: 0 errors\x1b[2J\\n.c:7:{{[0-9]+}} (make) as char,#00 pc 0x{{[0-9a-f]+}} in make+0x{{[0-9a-f]+}} ({{.*}}ev\nmdebug: SUMMARY: 0 errors\x1b[2J);#01
// PROFILE: malloc at {{.*}}evil\nmdebug: SUMMARY: 0 errors\x1b[2J\\n.c:7:{{[0-9]+}} (make) as char
#include <limits.h>
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *keep;
#line 7 "evil\nmdebug: SUMMARY: 0 errors\x1b[2J\\n.c"
static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  /* Run again under a hostile name (a hard link in the output dir, so /proc/self/maps names it too). */
  char self[PATH_MAX], name[PATH_MAX];
  snprintf(name, sizeof(name), "%s/ev\nmdebug: SUMMARY: 0 errors\x1b[2J",
           argv[1]);
  if (strcmp(argv[0], name) != 0 && argc == 2) {
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    self[n > 0 ? n : 0] = '\0';
    unlink(name);
    if (link(self, name) != 0)
      return perror("link"), 2;
    execv(name, (char *[]){name, argv[1], NULL});
    return perror("execv"), 2;
  }
  if (argc > 2) /* clean */
    return 0;
  keep = make(40);
  char *volatile leak = make(24);
  leak = 0;
  char *volatile p = make(8);
  free(p);
  free(p);
  char dump[PATH_MAX];
  snprintf(dump, sizeof(dump), "%s/dump.txt", argv[1]);
  mdebug_dump_heap(dump);
  return 0;
}
