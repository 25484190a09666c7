// Proves: log_allocator_stats_on_exit logs the stats at exit, after the leak
// report and before the summary: the live line counts the leaked 4000-byte
// block and the two kept 1000-byte blocks (3 blocks, 6000 bytes), also with
// every check off (none: the heap's metadata always knows its blocks); then
// the totals by category and the sites, largest first.
// Without the option nothing is logged.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=log_allocator_stats_on_exit %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none log_allocator_stats_on_exit" %t 2>&1 | %FileCheck %s --check-prefix=NONE
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdlib.h>
#include <string.h>

void *kept[2];
int main(void) {
  kept[0] = malloc(1000);
  kept[1] = malloc(1000);
  memset(malloc(4000), 0, 4000);
  return 0;
}
// CHECK: Direct leak of 4000 bytes in 1 block:
// CHECK: mdebug: Logging allocator stats...
// CHECK-NEXT: mdebug: stats: live: 3 blocks, 6000 bytes requested, {{[0-9]+}} bytes of mdebug overhead ({{[0-9]+}} per block)
// CHECK-NEXT: mdebug: stats: free_track: 0 blocks, 0 bytes held
// CHECK-NEXT: mdebug: stats: heap: {{[0-9]+}} bytes committed in size classes
// CHECK-NEXT: mdebug: stats: by category: heap blocks 6000 bytes in 3 blocks; mappings 0 bytes in 0 mappings; thread stacks 0 bytes in 0 stacks
// CHECK-NEXT: mdebug: stats:   4000 bytes in 1 block by malloc at {{.*}}stats_on_exit.c:18:10 (main)
// CHECK-NEXT: mdebug: stats:   1000 bytes in 1 block by malloc at {{.*}}stats_on_exit.c:1{{[67]}}:13 (main)
// CHECK-NEXT: mdebug: stats:   1000 bytes in 1 block by malloc at {{.*}}stats_on_exit.c:1{{[67]}}:13 (main)
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 4000 bytes leaked in 1 block
// NONE: mdebug: Logging allocator stats...
// NONE-NEXT: mdebug: stats: live: 3 blocks, 6000 bytes requested, {{[0-9]+}} bytes of mdebug overhead ({{[0-9]+}} per block)
// NONE-NEXT: mdebug: stats: free_track: 0 blocks, 0 bytes held
// NONE-NEXT: mdebug: stats: heap: {{[0-9]+}} bytes committed in size classes
// NONE-NEXT: mdebug: stats: by category: heap blocks 6000 bytes in 3 blocks; mappings 0 bytes in 0 mappings; thread stacks 0 bytes in 0 stacks
// OFF-NOT: Logging allocator stats
// OFF: mdebug: SUMMARY: 0 errors, 4000 bytes leaked in 1 block
