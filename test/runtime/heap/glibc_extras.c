// Proves: glibc's malloc extras answer for mdebug's heap: mallinfo2's
// uordblks counts the bytes the program holds (up by a megabyte while it
// holds one, down again after), arena covers them, hblks/hblkhd count a
// large block's mapping; malloc_trim gives free pages back (1) after a
// large free; mallopt is accepted (1); malloc_info writes its XML totals;
// malloc_stats logs mdebug's statistics lines.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1024, SIZE = 1024 };
static char *v[N];

int main(void) {
  struct mallinfo2 before = mallinfo2();
  for (int i = 0; i < N; i++) {
    v[i] = malloc(SIZE);
    memset(v[i], 1, SIZE);
  }
  char *big = malloc(4 << 20);
  struct mallinfo2 held = mallinfo2();
  printf("held: uordblks up by %s, arena %s, large blocks %zu (%s)\n",
         held.uordblks - before.uordblks >= (size_t)N * SIZE + (4 << 20)
             ? "at least 5 MiB" : "less",
         held.arena >= (size_t)N * SIZE ? "covers them" : "too small",
         held.hblks - before.hblks,
         held.hblkhd >= (4 << 20) ? "mapped" : "not mapped");
  for (int i = 0; i < N; i++)
    free(v[i]);
  free(big);
  for (int i = 0; i < 300; i++) { /* out of the quarantine */
    void *volatile p = malloc(16);
    free(p);
  }
  struct mallinfo2 after = mallinfo2();
  printf("after: uordblks %s\n",
         after.uordblks < held.uordblks - (size_t)N * SIZE ? "down" : "not down");
  printf("malloc_trim: %d\n", malloc_trim(0));
  printf("mallopt: %d\n", mallopt(M_MMAP_THRESHOLD, 65536));
  fflush(stdout);
  malloc_info(0, stdout);
  fflush(stdout);
  malloc_stats();
  return 0;
}
// CHECK: held: uordblks up by at least 5 MiB, arena covers them, large blocks 1 (mapped)
// CHECK-NEXT: after: uordblks down
// CHECK-NEXT: malloc_trim: 1
// CHECK-NEXT: mallopt: 1
// CHECK-NEXT: <malloc version="mdebug-1">
// CHECK-NEXT: <total type="committed" size="{{[0-9]+}}"/>
// CHECK-NEXT: <total type="in-use" size="{{[0-9]+}}"/>
// CHECK-NEXT: <total type="mmap" count="{{[0-9]+}}" size="{{[0-9]+}}"/>
// CHECK-NEXT: </malloc>
// CHECK-NEXT: mdebug: Logging allocator stats...
// CHECK-NEXT: mdebug: stats: live:
// CHECK-NOT: mdebug: ERROR
