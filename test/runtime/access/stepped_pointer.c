// Proves: a pointer stepped along a block in a loop (p++, a phi the
// compiler makes at -O1 and above, where the block is looked up once
// before the loop) is caught when it runs past the block's end, at the
// same line and with the same report as at -O0; and an answer the thread
// cached for a block (its bounds) is not taken for a new, smaller block
// in the same slot after a free: the access past the new end is reported.
// RUN: %mdebug_clang -fmdebug-check-access -O0 -g %s -o %t0
// RUN: %mdebug_clang -fmdebug-check-access -O2 -g %s -o %t2
// RUN: %t0 fine 2>&1 | %FileCheck %s --check-prefix=FINE --allow-empty
// RUN: %t2 fine 2>&1 | %FileCheck %s --check-prefix=FINE --allow-empty
// RUN: %not %t0 past 2>&1 | %FileCheck %s --check-prefix=PAST
// RUN: %not %t2 past 2>&1 | %FileCheck %s --check-prefix=PAST
// RUN: env MDEBUG_OPTIONS=none %not %t2 reuse 2>&1 | %FileCheck %s --check-prefix=REUSE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int sum(const int *a, int n) {
  int s = 0;
  for (const int *p = a; p < a + n; p++)
    s += *p; // PAST-LINE
  return s;
}

__attribute__((noinline)) int at(const int *a, int i) { return a[i]; }

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "fine";
  int *a = malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++)
    a[i] = i;
  int s = 0;
  if (!strcmp(mode, "fine"))
    s = sum(a, 10);
  else if (!strcmp(mode, "past"))
    s = sum(a, 11);
  else if (!strcmp(mode, "reuse")) {
    s = at(a, 9); /* the thread caches the 40-byte block's bounds */
    uintptr_t old = (uintptr_t)a;
    free(a);
    a = malloc(36); /* the same slot, as nothing holds freed blocks */
    fprintf(stderr, "%s slot\n", (uintptr_t)a == old ? "reused" : "another");
    s = at(a, 9); /* bytes 36-39: past the new end */
  }
  free(a);
  return s == 45 ? 0 : 1;
}
// FINE-NOT: mdebug
// PAST: mdebug: ERROR: heap buffer overflow in {{.*}}
// PAST-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 40 READ PAST ITS END
// PAST-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// PAST-NEXT:   read at {{.*}}stepped_pointer.c:[[#@LINE-31]]:{{[0-9]+}} (sum)
// REUSE: reused slot
// REUSE: mdebug: ERROR: heap buffer overflow in {{.*}}
// REUSE-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 36 READ PAST ITS END
// REUSE-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
