// Proves: a cycle of three blocks (a -> b -> c -> a) that nothing outside it
// points to any more is reported whole, and each block as an indirect leak
// (each is pointed to by another leaked block): "0 direct, 3 indirect".
// The clean run breaks the cycle and frees it.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

struct node {
  struct node *next;
  long payload[3];
};

static struct node *ring;

int main(int argc, char **argv) {
  struct node *a = malloc(sizeof *a);
  struct node *b = calloc(1, sizeof *b);
  struct node *c = malloc(sizeof *c);
  a->next = b;
  b->next = c;
  c->next = a;
  ring = a;
  if (argc > 1) {
    free(a);
    free(b);
    free(c);
  }
  ring = NULL; /* the last pointer from outside the cycle */
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 96 bytes leaked in 3 blocks (0 direct, 3 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Indirect leak of 32 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}lost_cycle.c:18:20 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 32 at 0x{{[0-9a-f]+}} (leak 1 of 3)
// CHECK-NEXT: Indirect leak of 32 bytes in 1 block:
// CHECK-NEXT:   allocated by calloc at {{.*}}lost_cycle.c:19:20 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 32 at 0x{{[0-9a-f]+}} (leak 2 of 3)
// CHECK-NEXT: Indirect leak of 32 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}lost_cycle.c:20:20 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 32 at 0x{{[0-9a-f]+}} (leak 3 of 3)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 96 bytes leaked in 3 blocks
// CLEAN-NOT: mdebug
