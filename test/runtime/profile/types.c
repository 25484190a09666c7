// Proves: every report names the allocated type of a site whose source
// says it ("allocated by malloc at types.c:L:C (push) as struct node"): a
// double free, a leak; a site whose source says nothing prints as it did
// before (the line ends with the function); the clean case reports nothing.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t double 2>&1 | %FileCheck %s --check-prefix=DOUBLE
// RUN: %not %t untyped 2>&1 | %FileCheck %s --check-prefix=UNTYPED --match-full-lines
// RUN: %not %t leak 2>&1 | %FileCheck %s --check-prefix=LEAK
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  int value;
};

static struct node *push(struct node *list) {
  struct node *n = malloc(sizeof *n);
  n->next = list;
  return n;
}

struct node *lost;

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  struct node *n = push(NULL);
  void *raw = malloc(10);
  free(raw);
  if (strcmp(what, "untyped") == 0)
    free(raw);
  free(n);
  if (strcmp(what, "double") == 0)
    free(n);
  if (strcmp(what, "leak") == 0) {
    lost = calloc(3, sizeof(struct node));
    lost = NULL;
  }
  return 0;
}
// DOUBLE: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 DOUBLE FREE (free)
// DOUBLE-NEXT:   allocated by malloc at {{.*}}types.c:19:20 (push) as struct node
// DOUBLE-NEXT:   freed by free at {{.*}}types.c:33:3 (main)
// DOUBLE-NEXT:   freed again by free at {{.*}}types.c:35:5 (main)
// UNTYPED: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 DOUBLE FREE (free)
// UNTYPED-NEXT:   allocated by malloc at {{.*}}types.c:29:15 (main)
// LEAK: 48 bytes in 1 block{{.*}}
// LEAK: calloc at {{.*}}types.c:37:12 (main) as struct node[]
// CLEAN-NOT: mdebug
