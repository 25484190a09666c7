// Proves: a block passed to mdebug_ignore() is never a leak, even once its
// only pointer is dropped, and neither is what it points to (it is scanned
// as a root). The control run does not call mdebug_ignore(), and the block
// is then a direct leak and what it points to an indirect one.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t control 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <mdebug/mdebug.h>
#include <stdlib.h>
#include <string.h>

struct cache {
  char *data;
  size_t size;
};

/* Builds a cache meant to last until the process ends, and forgets it. */
static void build_cache(int ignore) {
  struct cache *c = malloc(sizeof *c);
  c->size = 500;
  c->data = malloc(c->size);
  memset(c->data, 'c', c->size);
  if (ignore)
    mdebug_ignore(c);
}

int main(int argc, char **argv) {
  build_cache(argc == 1);
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 516 bytes leaked in 2 blocks (1 direct, 1 indirect); 0 blocks (0 bytes) still reachable
// CONTROL-NEXT: Direct leak of 16 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}ignore_dropped.c:19:21 (build_cache)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 16 at 0x{{[0-9a-f]+}} (leak 1 of 2)
// CONTROL-NEXT: Indirect leak of 500 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}ignore_dropped.c:21:13 (build_cache)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 500 at 0x{{[0-9a-f]+}} (leak 2 of 2)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 516 bytes leaked in 2 blocks
