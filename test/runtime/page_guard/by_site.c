// Proves: page_guard_site=PATTERN puts on pages of their own only the
// blocks allocated at sites whose function, source file or module matches
// PATTERN (as leak: suppressions match: anywhere in the name, '*', '^'
// and '$'); alone it implies page_guard (every such block). An over-read
// of one byte past a block from a chosen site faults at the read and is
// reported with the block's site; the same over-read of a block from
// another site reads its slack unnoticed, and the program goes on. Works
// for instrumented sites (file:line) and, preloaded, for uninstrumented
// callers named from the symbol table. `help` shows the option; an empty
// pattern is refused with a message naming it.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=page_guard_site=chosen_alloc page_guard_align=1" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SITE
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=page_guard_site=^other_alloc$ page_guard_align=1" %t other 2>&1 | %FileCheck %s --check-prefix=OTHER
// Anchored: "^other$" names no function, file or module: nothing is guarded.
// RUN: env "MDEBUG_OPTIONS=page_guard_site=^other$ page_guard_align=1" %t other 2>&1 | %FileCheck %s --check-prefix=NONE
// Preloaded into a build without mdebug: the caller's name from .symtab.
// RUN: %clang -g -O0 %s -o %t.plain
// RUN: %python %S/../../Inputs/exit_status.py env LD_PRELOAD=%mdebug_rt_so "MDEBUG_OPTIONS=page_guard_site=chosen_alloc page_guard_align=1" %t.plain 2>&1 | %FileCheck %s --check-prefixes=CHECK,PLAIN
// RUN: env MDEBUG_OPTIONS=help %t 2>&1 | %FileCheck %s --check-prefix=HELP
// RUN: env MDEBUG_OPTIONS=page_guard_site= %t other 2>&1 | %FileCheck %s --check-prefix=EMPTY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static char *chosen_alloc(void) {
  return malloc(13);
}

__attribute__((noinline)) static char *other_alloc(void) {
  return malloc(13);
}

__attribute__((noinline)) static int read_past(const char *p) {
  return p[13];
}

int main(int argc, char **argv) {
  char *chosen = chosen_alloc(), *other = other_alloc();
  memset(chosen, 'c', 13);
  memset(other, 'o', 13);
  fprintf(stderr, "past other: %d\n", read_past(other) != 0x42);
  if (argc == 1)
    fprintf(stderr, "past chosen: %d\n", read_past(chosen) != 0x42);
  free(chosen);
  free(other);
  return 0;
}
// CHECK: past other: 1
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: heap buffer overflow in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 13 READ PAST ITS END
// CHECK-NEXT:   read at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// SITE-NEXT:   allocated by malloc at {{.*}}by_site.c:26:10 (chosen_alloc)
// PLAIN-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in chosen_alloc{{[+ ].*}} ({{.*}}by_site.c.tmp.plain){{$}}
// CHECK-NEXT:   read by the instruction at pc 0x{{[0-9a-f]+}} in read_past{{[+ ].*}} ({{.*}})
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow), then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
// OTHER-NOT: past other
// OTHER: mdebug: ERROR: heap buffer overflow in
// OTHER: allocated by malloc at {{.*}}by_site.c:30:10 (other_alloc)
// OTHER: killed by signal 11
// NONE: past other: 1
// NONE-NOT: mdebug
// HELP: page_guard_site=PATTERN {{.*}}page_guard: choose only blocks allocated at a site whose function, source file or module matches PATTERN
// EMPTY: mdebug: MDEBUG_OPTIONS: option 'page_guard_site' requires a value (page_guard_site=PATTERN); ignoring MDEBUG_OPTIONS (running with the defaults)
// EMPTY: past other: 1
