// Proves: the fill check of a block leaving the quarantine sees a stale
// write at any checked byte, for every block size from 1 to 80 bytes (the
// word and 16-byte paths with their overlapping last load, and sizes past
// fill_on_free=64, the defaults' limit): at a byte inside and at the last
// checked byte of each, 160 writes, 160 reports.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="free_track=2 fill_on_free=64" %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="free_track=2 fill_on_free=64" %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS="free_track=2" %not %t all 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int limit = argc > 1 && strcmp(argv[1], "all") == 0 ? 1 << 20 : 64;
  for (int s = 1; s <= 80; s++) {
    int checked = s < limit ? s : limit;
    for (int last = 0; last < 2; last++) {
      unsigned char *p = malloc(s);
      free(p);
      if (argc == 1 || limit > 64)
        p[last ? checked - 1 : (s * 7) % checked] = 'u';
      for (int i = 0; i < 3; i++)
        free(malloc(8));
    }
  }
  fprintf(stderr, "done\n");
  return 0;
}
// CHECK: done
// CHECK: mdebug: SUMMARY: 160 errors (160 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
