// Proves: an access computed from a pointer just past a block's end (C
// lets a program keep one: Lua's tables keep `lastfree`, one past their
// node array, and step it back) is checked against the block it steps
// back into, not reported as an underflow of the block that starts right
// there. Without a rear guard (`none`, and sets built on it) blocks of one size
// lie end to start, and such a pointer is the next block's start: the
// report was "READ BEFORE ITS START" of that neighbour (found on Lua's
// own getfreepos under MDEBUG_OPTIONS=none). There, p[-1] of the second
// block is the same access and goes unreported; with the rear guard of
// the defaults the blocks lie apart and it is reported.
// RUN: %mdebug_clang -fmdebug-check-access -O2 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=none:free_track=64 %t 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %not %t under 2>&1 | %FileCheck %s --check-prefix=UNDER
// CHECK: free node at 0
// CHECK-NOT: mdebug
// UNDER: mdebug: ERROR: heap buffer overflow
// UNDER: READ BEFORE ITS START
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
  void *value;
  unsigned char tt, key_tt;
  int next;
  void *key;
}; /* 24 bytes: two make 48, a block that fills its size class */

struct table {
  struct node *node, *lastfree;
};

/* Lua 5.4's getfreepos: lastfree starts one past the last node. */
__attribute__((noinline)) static struct node *free_pos(struct table *t) {
  while (t->lastfree > t->node) {
    t->lastfree--;
    if (t->lastfree->key_tt == 0)
      return t->lastfree;
  }
  return NULL;
}

__attribute__((noinline)) static int before(volatile unsigned char *p) {
  // UNDER: read at {{.*}}past_end_origin.c:[[@LINE+1]]
  return p[-1];
}

int main(int argc, char **argv) {
  /* Two blocks of 48 bytes end to start: the first's end is the second's
   * start (without a rear guard; with one they lie apart, as they may). */
  struct node *blocks[64];
  struct node *nodes = NULL, *next = NULL;
  for (int i = 0; i < 64; i++) {
    blocks[i] = malloc(2 * sizeof(struct node));
    memset(blocks[i], 0, 2 * sizeof(struct node));
    blocks[i][1].key_tt = 1;
    for (int j = 0; j < i && !nodes; j++)
      if (blocks[j] + 2 == blocks[i])
        nodes = blocks[j], next = blocks[i];
  }
  if (!nodes)
    nodes = blocks[0], next = blocks[1];
  if (argc > 1 && strcmp(argv[1], "under") == 0)
    return before((unsigned char *)next) == 0x55;
  struct table *t = malloc(sizeof *t);
  t->node = nodes;
  t->lastfree = nodes + 2;
  struct node *n = free_pos(t);
  printf("free node at %d\n", n ? (int)(n - nodes) : -1);
  for (int i = 0; i < 64; i++)
    free(blocks[i]);
  free(t);
  return 0;
}
