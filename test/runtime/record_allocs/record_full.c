// Proves: record_allocs=N keeps N records: the call that finds the buffer
// full logs "Maximum number of records added, all new operations will be
// dropped." once, later calls are dropped too, and the file holds the
// first N calls only.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs=5 record_allocs_on_exit record_allocs_file=%t.d/rec" %t 2>&1 | %FileCheck %s --check-prefix=LOG
// RUN: %python %S/../../Inputs/record_check.py %t.d/rec.* | %FileCheck %s
#include <stdlib.h>

void *kept[10];
int main(void) {
  for (int i = 0; i < 10; i++)
    kept[i] = malloc(1000 + i);
  for (int i = 0; i < 10; i++)
    free(kept[i]);
  return 0;
}
// LOG: mdebug: Maximum number of records added, all new operations will be dropped.
// LOG-NOT: Maximum number
// CHECK: malloc p{{[0-9]+}} 100{{[0-9]}}
// CHECK-NOT: free
// CHECK: records: 5 threads: 1
