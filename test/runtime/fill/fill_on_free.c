// Proves: a freed block is filled with 0xef (free_track turns fill_on_free
// on by default), so a read after free sees 0xefefefef..., not the old data.
// The block is still held by the free_track quarantine, so reading it here is
// reading memory nobody else owns yet.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t read-first 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

struct message {
  size_t length;
  char text[24];
};

int main(int argc, char **argv) {
  struct message *m = malloc(sizeof *m);
  m->length = 5;
  size_t length = 0;
  if (argc > 1)
    length = m->length;
  free(m);
  if (argc == 1)
    length = *(volatile size_t *)&m->length; /* the bug: read after free */
  printf("length = %#zx\n", length);
  return length == 5 ? 0 : 1;
}
// CHECK-NOT: mdebug
// CHECK: length = 0xefefefefefefefef
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: length = 0x5
// CLEAN-NOT: mdebug
