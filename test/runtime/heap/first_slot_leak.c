// Proves: the runtime's own data never keeps a block alive. The first block
// of every size class sits at a fixed place in its region; none of the
// runtime's tables (read by the leak scan as a root, being in its data)
// holds that address, so a lost first block of each of five classes is
// reported like any other. The clean run frees them.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none leak_check" %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

#include "../../Inputs/leak_check_util.h"

static const size_t sizes[] = {3000, 5000, 9000, 20000, 60000};

static __attribute__((noinline)) void lose(int really) {
  for (int i = 0; i < 5; i++) {
    char *p = malloc(sizes[i]);
    memset(p, 1, sizes[i]);
    if (!really)
      free(p);
  }
}

int main(int argc, char **argv) {
  lose(argc == 1);
  scrub_stack();
  return 0;
}
// CHECK: mdebug: 97000 bytes leaked in 5 blocks (5 direct, 0 indirect)
// CHECK: mdebug: SUMMARY: 0 errors, 97000 bytes leaked in 5 blocks
// CLEAN-NOT: mdebug
