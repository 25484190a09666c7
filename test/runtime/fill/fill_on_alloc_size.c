// Proves: fill_on_alloc=8 fills only the first 8 bytes of a new block with
// 0xeb; the rest is left as the allocator gave it.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=fill_on_alloc=8 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=fill_on_alloc=8 %t init 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct record {
  uint64_t id;
  unsigned char payload[56];
};

int main(int argc, char **argv) {
  struct record *r = malloc(sizeof *r);
  const unsigned char *bytes = (const unsigned char *)r;
  size_t filled = 0, first = 0;
  for (size_t i = 0; i < sizeof *r; i++)
    filled += bytes[i] == 0xeb;
  while (first < sizeof *r && bytes[first] == 0xeb)
    first++;
  printf("0xeb bytes: %zu of %zu, leading %zu\n", filled, sizeof *r, first);
  if (argc > 1)
    r->id = 42;
  printf("id = %#llx\n", (unsigned long long)r->id);
  int ok = r->id == 42;
  free(r);
  return ok ? 0 : 1;
}
// CHECK-NOT: mdebug
// CHECK: 0xeb bytes: 8 of 64, leading 8
// CHECK-NEXT: id = 0xebebebebebebebeb
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: 0xeb bytes: 8 of 64, leading 8
// CLEAN-NEXT: id = 0x2a
// CLEAN-NOT: mdebug
