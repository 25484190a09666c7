// Proves: max_allocation_size=N refuses a request of N + 1 bytes (malloc,
// calloc, realloc, even one its block's slot has room for, small sizes and
// large alike), reported at its site as too big with the limit it broke,
// and grants N bytes exactly; a bad value
// (0, above the heap's 2^47-1, not a number, none) is refused with one line
// naming the option and the rule, and the run uses the default of 1 TiB.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=max_allocation_size=1000000 %python %S/../../Inputs/exit_status.py %t 1000000 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none max_allocation_size=100" %not %t 100 2>&1 | %FileCheck %s --check-prefix=SMALL
// RUN: env MDEBUG_OPTIONS=max_allocation_size=0 %t 1000000 2>&1 | %FileCheck %s --check-prefixes=BAD,ZERO
// RUN: env MDEBUG_OPTIONS=max_allocation_size=140737488355328 %t 1000000 2>&1 | %FileCheck %s --check-prefixes=BAD,OVER
// RUN: env MDEBUG_OPTIONS=max_allocation_size=1MB %t 1000000 2>&1 | %FileCheck %s --check-prefixes=BAD,JUNK
// RUN: env MDEBUG_OPTIONS=max_allocation_size %t 1000000 2>&1 | %FileCheck %s --check-prefixes=BAD,NONE
// The clean case: the limit itself is granted, and the default grants more.
// RUN: env MDEBUG_OPTIONS="verbose max_allocation_size=140737488355327" %t 1000000 2>&1 | %FileCheck %s --check-prefixes=BAD,MAX
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  size_t limit = strtoul(argv[1], NULL, 10);
  char *under = malloc(limit);
  errno = 0;
  char *over = malloc(limit + 1);
  fprintf(stderr, "malloc(limit): %s; malloc(limit + 1): %s, errno %s\n",
          under ? "a block" : "NULL", over ? "a block" : "NULL",
          over ? "-" : errno == ENOMEM ? "ENOMEM" : "?");
  char *zeroed = calloc(limit / 4 + 1, 4);
  fprintf(stderr, "calloc(limit / 4 + 1, 4): %s\n", zeroed ? "a block" : "NULL");
  char *grow = malloc(limit);
  char *grown = realloc(grow, limit + 1); /* in place, if its slot has room */
  fprintf(stderr, "realloc(limit + 1): %s\n", grown ? "a block" : "NULL");
  free(under);
  free(over);
  free(zeroed);
  free(grown ? grown : grow);
  return 0;
}
// CHECK:      mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1000001 BYTES TOO BIG (malloc)
// CHECK-NEXT:   requested size 0xf4241 exceeds the maximum allocation size 0xf4240 (1000000 bytes, max_allocation_size)
// CHECK-NEXT:   requested by malloc at {{.*}}max_allocation_size.c:24:16 (main){{.*}}
// CHECK-NEXT:   malloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: malloc(limit): a block; malloc(limit + 1): NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1000004 BYTES TOO BIG (calloc)
// CHECK-NEXT:   requested size 0xf4244 exceeds the maximum allocation size 0xf4240 (1000000 bytes, max_allocation_size)
// CHECK-NEXT:   requested by calloc at {{.*}}max_allocation_size.c:28:18 (main){{.*}}
// CHECK-NEXT:   calloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: calloc(limit / 4 + 1, 4): NULL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1000001 BYTES TOO BIG (realloc)
// CHECK-NEXT:   requested size 0xf4241 exceeds the maximum allocation size 0xf4240 (1000000 bytes, max_allocation_size)
// CHECK-NEXT:   requested by realloc at {{.*}}max_allocation_size.c:31:17 (main){{.*}}
// CHECK-NEXT:   realloc returns NULL, errno ENOMEM; the block it was given is left as it was
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: realloc(limit + 1): NULL
// CHECK-NEXT: mdebug: SUMMARY: 3 errors (3 allocation size too big), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// SMALL: +++ ALLOCATION REQUEST OF 101 BYTES TOO BIG (malloc)
// SMALL: malloc(limit): a block; malloc(limit + 1): NULL, errno ENOMEM
// SMALL: +++ ALLOCATION REQUEST OF 104 BYTES TOO BIG (calloc)
// SMALL: +++ ALLOCATION REQUEST OF 101 BYTES TOO BIG (realloc)
// SMALL: realloc(limit + 1): NULL
// SMALL: mdebug: SUMMARY: 3 errors (3 allocation size too big)
// ZERO: mdebug: MDEBUG_OPTIONS: bad value for option 'max_allocation_size', value must be >= 1: 0; ignoring MDEBUG_OPTIONS (running with the defaults)
// OVER: mdebug: MDEBUG_OPTIONS: bad value for option 'max_allocation_size', value must be <= 140737488355327: 140737488355328; ignoring MDEBUG_OPTIONS (running with the defaults)
// JUNK: mdebug: MDEBUG_OPTIONS: bad value for option 'max_allocation_size', non space found after option: MB; ignoring MDEBUG_OPTIONS (running with the defaults)
// NONE: mdebug: MDEBUG_OPTIONS: option 'max_allocation_size' requires a value (max_allocation_size=N); ignoring MDEBUG_OPTIONS (running with the defaults)
// MAX: mdebug: options in force: {{.*}} max_allocation_size=140737488355327
// BAD-NOT: mdebug
// BAD: malloc(limit): a block; malloc(limit + 1): a block, errno -
// BAD-NEXT: calloc(limit / 4 + 1, 4): a block
// BAD-NEXT: realloc(limit + 1): a block
// BAD-NOT: mdebug
