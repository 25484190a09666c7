// Proves: leak_track, which lists every block still allocated at exit,
// says in its report how much it left out as the C library's own (here
// stdout's buffer, allocated by printf), instead of skipping it without a
// word; with nothing of the program's left, the same line is logged alone
// and the exit status stays the program's.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=leak_track %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=leak_track %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *kept = malloc(77);
  printf("kept %p\n", (void *)kept);
  if (argc > 1)
    free(kept);
  return 0;
}
// CHECK: mdebug: 77 bytes leaked in 1 block (leak_track: every block still allocated at exit)
// CHECK-NEXT: mdebug: leak_track: {{[0-9]+}} bytes in {{[0-9]+}} block{{s?}} allocated by the C library, libstdc++ and the dynamic loader for themselves are not listed
// CHECK-NEXT: 77 bytes in 1 block:
// CHECK-NEXT: allocated by malloc at {{.*}}leak_track_system.c:13:16 (main)
// CHECK: exit status: 23
// CLEAN-NOT: leaked
// CLEAN: mdebug: leak_track: {{[0-9]+}} bytes in {{[0-9]+}} block{{s?}} allocated by the C library, libstdc++ and the dynamic loader for themselves are not listed
// CLEAN-NOT: leaked
// CLEAN: exit status: 0
