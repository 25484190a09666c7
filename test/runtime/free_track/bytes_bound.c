// Proves: free_track_bytes bounds what a thread's quarantine holds: with
// free_track=100 free_track_bytes=65536, writing to a 16 KiB block freed
// before four more such frees is caught when it leaves the quarantine (the
// fifth free pushes it out, far fewer than 100), while with the bound lifted
// (free_track_bytes=0, as free_track=100 alone means) the same block is
// still held and the write is only caught at exit. The clean run writes
// nothing.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="free_track=100 free_track_bytes=65536" %not %t 2>&1 | %FileCheck %s --check-prefix=BOUND
// RUN: env MDEBUG_OPTIONS="free_track=100" %not %t 2>&1 | %FileCheck %s --check-prefix=UNBOUND
// RUN: env MDEBUG_OPTIONS="free_track=100 free_track_bytes=65536" %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *first = malloc(16000);
  free(first);
  if (argc == 1)
    first[100] = 'x'; /* a stale write */
  for (int i = 0; i < 5; i++) {
    char *volatile p = malloc(16000);
    free(p);
  }
  fprintf(stderr, "five more freed\n");
  return 0;
}
// BOUND: mdebug: ERROR: use after free in
// BOUND: detected when the block left the free_track quarantine
// BOUND: five more freed
// UNBOUND: five more freed
// UNBOUND: mdebug: ERROR: use after free in
// UNBOUND: detected at exit, in the free_track quarantine
// CLEAN-NOT: mdebug
