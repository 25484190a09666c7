// Proves: fill_on_free=4 fills only the first 4 bytes of a freed block with
// 0xef; the bytes after them keep what the program last wrote.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=fill_on_free=4 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=fill_on_free=4 %t read-first 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  unsigned char *p = malloc(8);
  unsigned char seen[8];
  memset(p, 0x41, 8);
  if (argc > 1)
    memcpy(seen, p, 8);
  free(p);
  if (argc == 1)
    memcpy(seen, (const void *)p, 8); /* the bug: read after free */
  printf("bytes:");
  for (int i = 0; i < 8; i++)
    printf(" %02x", seen[i]);
  printf("\n");
  return seen[0] == 0x41 ? 0 : 1;
}
// CHECK-NOT: mdebug
// CHECK: bytes: ef ef ef ef 41 41 41 41{{$}}
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: bytes: 41 41 41 41 41 41 41 41{{$}}
// CLEAN-NOT: mdebug
