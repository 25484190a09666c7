// Proves: a program built with mdebug-clang (the runtime linked in) with an
// instrumented shared library (which needs libmdebug-rt.so), the shape of a
// CMake project with shared libraries, runs one runtime, the program's: the
// options are printed once, log_allocator_stats_on_exit logs one block of
// figures, counting the library's blocks, and backtrace_dump_on_exit writes
// one dump, with the live blocks of both (the library's copy of the runtime
// used to start too, and overwrite it with an empty dump). Blocks cross
// between program and library cleanly, mdebug_check_leaks() called from the
// library reaches the program's runtime, and the library's leak is reported
// at its own site.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/Inputs/keeper.c -o %t.dir/libkeeper.so
// RUN: llvm-readelf -d %t.dir/libkeeper.so | %FileCheck %s --check-prefix=DSO
// RUN: %mdebug_clang -g %s -L%t.dir -lkeeper -Wl,-rpath,%t.dir -o %t
// RUN: env MDEBUG_OPTIONS="verbose log_allocator_stats_on_exit backtrace backtrace_dump_on_exit backtrace_dump_prefix=%t.dir/dump" %t 2>&1 | %FileCheck %s
// RUN: ls %t.dir | %FileCheck %s --check-prefix=FILES
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dir/dump.*.exit.txt | %FileCheck %s --check-prefix=DUMP
// A leak in the library: one report, at the library's site.
// RUN: %not %t leak 2>&1 | %FileCheck %s --check-prefix=LEAK
// Clean case: without options the run prints nothing from mdebug.
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *keeper_copy(const char *s);
void keeper_free(void *p);
long keeper_check_leaks(void);

static char *kept_by_program, *kept_by_library;

int main(int argc, char **argv) {
  char *mine = malloc(40);
  strcpy(mine, "the program's");
  keeper_free(mine);
  char *theirs = keeper_copy("the library's");
  free(theirs);
  kept_by_program = malloc(300);
  kept_by_library = keeper_copy("still live at exit, reachable");
  if (argc > 1)
    keeper_copy("leaked by the library");
  printf("leaks found from the library: %ld\n", keeper_check_leaks());
  return 0;
}
// DSO: (NEEDED) Shared library: [libmdebug-rt.so]
// CHECK: mdebug: options in force: {{.*}}backtrace=16 backtrace_dump_on_exit
// CHECK-NOT: mdebug: options in force
// CHECK: leaks found from the library: 0
// CHECK-NOT: mdebug: options in force
// CHECK: mdebug: Dumping to file: {{.*}}/dump.{{[0-9]+}}.exit.txt
// CHECK-NEXT: mdebug: Logging allocator stats...
// CHECK-NEXT: mdebug: stats: live: {{[1-9][0-9]*}} blocks
// CHECK-NOT: mdebug: stats: live
// CHECK-NOT: Dumping
// FILES-COUNT-1: dump.{{[0-9]+}}.exit.txt
// FILES-NOT: dump
// DUMP-DAG: sz 300 num 1 frames 2 bt main [libc.so.6]
// DUMP-DAG: sz 30 num 1 frames 3 bt [libkeeper.so] main [libc.so.6]
// DUMP: heap dump OK
// LEAK: mdebug: ERROR: memory leak in
// LEAK: allocated by malloc at {{.*}}Inputs/keeper.c:13:13 (keeper_copy)
// LEAK: mdebug: SUMMARY: 0 errors, 22 bytes leaked in 1 block
// LEAK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: leaks found from the library: 0
// CLEAN-NOT: mdebug
