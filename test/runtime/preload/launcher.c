// Proves: mdebug-run runs a program built with plain clang under mdebug:
// its errors and leaks (a double free; a lost mapping, in its note) are
// reported with the callers' addresses, its arguments reach it unchanged, the run ends
// with exitcode; --options and --options= set MDEBUG_OPTIONS; a library
// already in LD_PRELOAD stays preloaded; with `backtrace` a report has the
// program's frames (built with frame pointers); found through PATH too. A
// program without errors keeps its own exit status and output.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %clang -g -fno-omit-frame-pointer %s -o %t.dir/plain
// RUN: %clang -shared -fPIC %S/Inputs/say_hello.c -o %t.dir/libhello.so
// RUN: %not %mdebug_run %t.dir/plain one "two words" 2>&1 | %FileCheck %s
// RUN: env PATH=%t.dir:/usr/bin:/bin LD_PRELOAD=%t.dir/libhello.so %mdebug_run --options verbose -- plain 2>&1 | %FileCheck %s --check-prefix=VERBOSE
// RUN: %not %mdebug_run --options="backtrace backtrace_full" %t.dir/plain x 2>&1 | %FileCheck %s --check-prefix=BT
// RUN: %mdebug_run %t.dir/plain 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %python %S/../../Inputs/exit_status.py %mdebug_run %t.dir/plain exit7 | %FileCheck %s --check-prefix=STATUS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

__attribute__((noinline)) void *lose_mapping(void) {
  return mmap(NULL, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    printf("arg %d: %s\n", i, argv[i]);
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "exit7") == 0)
    return 7;
  if (argc > 1) {
    char *p = malloc(10);
    free(p);
    free(p);
    lose_mapping();
  }
  return 0;
}
// CHECK: arg 1: one
// CHECK-NEXT: arg 2: two words
// CHECK: mdebug: ERROR: double free in plain
// CHECK: allocated by malloc at pc 0x{{[0-9a-f]+}} {{.*}}/plain
// CHECK: mdebug: NOTE: mapping leak in plain
// CHECK: Mapping leak of 8192 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at pc 0x{{[0-9a-f]+}} {{.*}}/plain
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks{{$}}
//
// VERBOSE: other preload here
// VERBOSE: mdebug: options in force: {{.*}}verbose
//
// BT: Mapping leak of 8192 bytes in 1 mapping:
// BT-NEXT:   allocated by mmap at pc 0x{{[0-9a-f]+}} {{.*}}/plain
// BT-NEXT: Backtrace at time of allocation:
// BT-NEXT: #00 pc 0x{{[0-9a-f]+}} in lose_mapping{{[+ ].*}} ({{.*}}/plain)
// BT-NEXT: #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}/plain)
//
// CLEAN-NOT: mdebug
//
// STATUS: arg 1: exit7
// STATUS-NEXT: exit status: 7
