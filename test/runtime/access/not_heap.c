// Proves: what is not in mdebug's primary heap is not checked and never
// reported by the access checks: a stack array and a global read past their
// end (their accesses are not even instrumented), a mapping of the
// program's own, and a large block (over 128 KiB, a mapping of its own
// whose inaccessible pages catch what leaves it: here a read in its last
// bytes, which is fine). Nothing is reported, in any mode.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %mdebug_clang -fmdebug-check-access -mllvm -mdebug-access-stats -O1 -g -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=STATS
#include <stdlib.h>
#include <sys/mman.h>

int table[4];

__attribute__((noinline)) int read_at(const int *v, long i) { return v[i]; }

int main(int argc, char **argv) {
  int local[4] = {1, 2, 3, 4};
  volatile int *l = local;
  int r = l[argc + 3]; /* past the stack array: not the heap's business */
  r += table[argc + 3];
  int *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  r += read_at(m, 2047);
  munmap(m, 8192);
  int *big = calloc(1, 200 << 10);
  r += read_at(big, (200 << 10) / 4 - 1);
  free(big);
  return r == 12345;
}
// CHECK-NOT: mdebug
// STATS: mdebug: {{.*}}not_heap.c: {{[0-9]+}} loads and stores, {{[1-9][0-9]*}} on the stack, {{[1-9][0-9]*}} in globals,
