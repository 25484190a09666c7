// Proves: fill_on_alloc fills every byte of a new block with 0xeb, so a
// counter the program forgot to initialise starts at 0xebebebeb on every run
// and the bug shows the same way each time.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=fill_on_alloc %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=fill_on_alloc %t init 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

struct counter {
  unsigned hits;
  unsigned char name[12];
};

int main(int argc, char **argv) {
  struct counter *c = malloc(sizeof *c);
  unsigned char *bytes = (unsigned char *)c;
  printf("fresh:");
  for (size_t i = 0; i < sizeof *c; i++)
    printf(" %02x", bytes[i]);
  printf("\n");
  if (argc > 1)
    c->hits = 0;
  c->hits++;
  printf("hits = %#x\n", c->hits);
  int ok = c->hits == 1;
  free(c);
  return ok ? 0 : 1;
}
// CHECK-NOT: mdebug
// CHECK: fresh: eb eb eb eb eb eb eb eb eb eb eb eb eb eb eb eb{{$}}
// CHECK-NEXT: hits = 0xebebebec
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: fresh: eb eb eb eb eb eb eb eb eb eb eb eb eb eb eb eb{{$}}
// CLEAN-NEXT: hits = 0x1{{$}}
// CLEAN-NOT: mdebug
