// Proves: a block that libc allocates on the program's behalf and hands to
// it (asprintf's string, getline's buffer) is the program's: once the
// program loses it, it is reported like any leak. Only what libc keeps for
// itself is excused, and the reachability check already spares what libc
// still holds. (The site may be given inside libc or at the program's call;
// it is not checked here.) The clean run frees both blocks.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *text = NULL;
  asprintf(&text, "%s-%d", "value", 42); /* 9 bytes */
  FILE *f = fopen("/dev/null", "r");
  char *line = NULL;
  size_t capacity = 0;
  getline(&line, &capacity, f); /* a 120-byte buffer, even at end of file */
  fclose(f);
  fprintf(stderr, "%s, buffer of %zu\n", text, capacity);
  if (argc > 1) {
    free(text);
    free(line);
  }
  return 0;
}
// CHECK: value-42, buffer of 120
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 129 bytes leaked in 2 blocks (2 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 120 bytes in 1 block:
// CHECK-NEXT:   allocated by {{[a-z_]+}} at {{.+}}
// CHECK-NEXT: +++ [[PROG]] leaked block of size 120 at 0x{{[0-9a-f]+}} (leak 1 of 2)
// CHECK-NEXT: Direct leak of 9 bytes in 1 block:
// CHECK-NEXT:   allocated by {{[a-z_]+}} at {{.+}}
// CHECK-NEXT: +++ [[PROG]] leaked block of size 9 at 0x{{[0-9a-f]+}} (leak 2 of 2)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 129 bytes leaked in 2 blocks
// CLEAN-NOT: mdebug
// CLEAN: value-42, buffer of 120
// CLEAN-NOT: mdebug
