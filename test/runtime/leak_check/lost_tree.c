// Proves: when the root of a tree is lost, the root is a direct leak and
// every node below it (children and grandchildren, only reachable through
// the root) an indirect one; groups are by site, direct groups first. The
// clean run frees the tree.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

struct tree {
  struct tree *child[2];
  int depth;
};

static struct tree *new_leaf(void) {
  struct tree *t = calloc(1, sizeof *t);
  t->depth = 2;
  return t;
}

static struct tree *new_inner(void) {
  struct tree *t = malloc(sizeof *t);
  t->depth = 1;
  t->child[0] = new_leaf();
  t->child[1] = new_leaf();
  return t;
}

static struct tree *new_root(void) {
  struct tree *t = malloc(sizeof *t + 40);
  t->depth = 0;
  t->child[0] = new_inner();
  t->child[1] = new_inner();
  return t;
}

static void free_tree(struct tree *t) {
  if (!t)
    return;
  if (t->depth < 2) {
    free_tree(t->child[0]);
    free_tree(t->child[1]);
  }
  free(t);
}

static struct tree *root;

int main(int argc, char **argv) {
  root = new_root();
  if (argc > 1)
    free_tree(root);
  root = NULL;
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 208 bytes leaked in 7 blocks (1 direct, 6 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 64 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}lost_tree.c:30:20 (new_root)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 64 at 0x{{[0-9a-f]+}} (leak 1 of 7)
// CHECK-NEXT: Indirect leak of 96 bytes in 4 blocks:
// CHECK-NEXT:   allocated by calloc at {{.*}}lost_tree.c:16:20 (new_leaf)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 2 of 7)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 3 of 7)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 4 of 7)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 5 of 7)
// CHECK-NEXT: Indirect leak of 48 bytes in 2 blocks:
// CHECK-NEXT:   allocated by malloc at {{.*}}lost_tree.c:22:20 (new_inner)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 6 of 7)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 7 of 7)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 208 bytes leaked in 7 blocks
// CLEAN-NOT: mdebug
