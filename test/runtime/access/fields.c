// Proves: fields of one structure read in one block, which share one
// compare of the farthest field's end, are each reported at their own
// line: a structure allocated 8 bytes too short (its last field past the
// block's end) reports the read of that field alone, as a heap buffer
// overflow with its own size and line, not the fields before it; a freed
// structure reports the first field read, as a use after free. The clean
// twin allocates the whole structure.
// RUN: %mdebug_clang -fmdebug-check-access -O2 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %not %t freed 2>&1 | %FileCheck %s --check-prefix=FREED
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

struct rec {
  long id;
  int kind;
  int flags;
  long weight;
};

__attribute__((noinline)) long score(const struct rec *r) {
  long s = r->id;
  s += r->kind;
  s += r->flags;
  s += r->weight;
  return s;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "short";
  size_t size = strcmp(mode, "short") == 0 ? sizeof(struct rec) - 8
                                           : sizeof(struct rec);
  struct rec *r = calloc(1, size);
  if (strcmp(mode, "freed") == 0)
    free(r);
  long s = score(r);
  if (strcmp(mode, "freed") != 0)
    free(r);
  return (int)s;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 READ PAST ITS END
// CHECK-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}fields.c:26:{{[0-9]+}} (score)
// CHECK-NEXT:   allocated by calloc at {{.*}}fields.c:34:19 (main)
// CHECK-NOT: mdebug: ERROR
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow)
// FREED: mdebug: ERROR: use after free in {{.*}}
// FREED-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 USED AFTER FREE (read)
// FREED-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 0 bytes inside the freed block
// FREED-NEXT:   read at {{.*}}fields.c:23:{{[0-9]+}} (score)
// CLEAN-NOT: mdebug
