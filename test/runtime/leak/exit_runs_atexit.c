// Proves: at exit with a leak, mdebug ends the process with _exit(23) by
// default, so an exit handler a library registered before mdebug's never
// runs (its buffered output is lost, as under the sanitizers);
// exit_runs_atexit ends it with exit(23) instead: the library's handler
// runs, its buffered line is written, and the status is still 23. The clean
// case (no leak) runs every handler with either setting.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %clang -g -shared -fPIC -DLIB %s -o %t.dir/libearly.so
// RUN: %mdebug_clang -g %s -o %t %t.dir/libearly.so -Wl,-rpath,%t.dir
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// RUN: env MDEBUG_OPTIONS=exit_runs_atexit %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=exit_runs_atexit %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>

#ifdef LIB
static void lib_handler(void) {
  char *note = malloc(16); /* a library's handler allocates and frees */
  free(note);
  printf("library handler ran\n"); /* buffered: stdout is a pipe */
}
__attribute__((constructor)) static void lib_init(void) {
  atexit(lib_handler);
}
#else
int main(int argc, char **argv) {
  char *lost = malloc(31);
  lost[0] = 'x';
  if (argc > 1)
    free(lost);
  lost = NULL;
  printf("main done\n");
  return 0;
}
#endif
// DEFAULT: main done
// DEFAULT-NOT: library handler ran
// DEFAULT: mdebug: SUMMARY: 0 errors, 31 bytes leaked in 1 block
// DEFAULT-NOT: library handler ran
// DEFAULT: exit status: 23
// CHECK: main done
// CHECK: mdebug: SUMMARY: 0 errors, 31 bytes leaked in 1 block
// CHECK: library handler ran
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: main done
// CLEAN-NEXT: library handler ran
// CLEAN-NEXT: exit status: 0
