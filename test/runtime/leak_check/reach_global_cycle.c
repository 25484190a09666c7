// Proves: a cycle of blocks (a -> b -> c -> a) that a global points into is
// not a leak, and neither is a block the cycle's members point to: what a
// root reaches is reachable however it is linked. (The same cycle, lost,
// is lost_cycle.c.)
// RUN: %mdebug_clang -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  char *label;
};

static struct node *ring;

static struct node *new_node(const char *label) {
  struct node *n = malloc(sizeof *n);
  n->label = strdup(label);
  n->next = NULL;
  return n;
}

int main(void) {
  struct node *a = new_node("a"), *b = new_node("b"), *c = new_node("c");
  a->next = b;
  b->next = c;
  c->next = a;
  ring = b;
  return 0;
}
// CHECK-NOT: mdebug
