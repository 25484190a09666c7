// Proves: a program built with mdebug-clang and started with
// LD_PRELOAD=libmdebug-rt.so as well runs one runtime, the program's: the
// options are printed once, and backtrace_dump_on_exit writes one dump
// with the live blocks (the preloaded copy used to start too, and overwrite
// it with an empty dump).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g %s -o %t
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS="verbose backtrace backtrace_dump_on_exit backtrace_dump_prefix=%t.dir/dump" %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dir/dump.*.exit.txt | %FileCheck %s --check-prefix=DUMP
// Clean case: nothing from mdebug.
// RUN: env LD_PRELOAD=%mdebug_rt_so %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>

static char *kept;

int main(void) {
  kept = malloc(345);
  printf("kept %p\n", (void *)kept);
  return 0;
}
// CHECK: mdebug: options in force: {{.*}}backtrace_dump_on_exit
// CHECK-NOT: mdebug: options in force
// CHECK: kept 0x
// CHECK-NEXT: mdebug: Dumping to file: {{.*}}/dump.{{[0-9]+}}.exit.txt
// CHECK-NOT: mdebug
// DUMP: sz 345 num 1 frames 2 bt main [libc.so.6]
// DUMP: heap dump OK
// CLEAN-NOT: mdebug
// CLEAN: kept 0x
// CLEAN-NOT: mdebug
