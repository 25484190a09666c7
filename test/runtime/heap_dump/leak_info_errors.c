// Proves: get_malloc_leak_info's refusals, with malloc debug's messages:
// without backtrace it logs that allocations are not tracked and returns
// a NULL info with every size 0 (and malloc_backtrace returns 0); a NULL
// parameter is refused; free_malloc_leak_info of a buffer it did not hand
// out is ignored with a message (the block stays usable), and of NULL is
// silent.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env MDEBUG_OPTIONS=backtrace %t 2>&1 | %FileCheck %s --check-prefix=ON
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* in order with mdebug's stderr */
  uint8_t *info = (uint8_t *)1;
  size_t overall = 1, info_size = 1, total = 1, bt_size = 1;
  char *block = malloc(100);
  get_malloc_leak_info(&info, &overall, &info_size, &total, &bt_size);
  printf("info %s overall %zu info_size %zu total %zu backtrace_size %zu\n",
         info ? "set" : "NULL", overall, info_size, total, bt_size);
  free_malloc_leak_info(info);
  uintptr_t frames[4];
  printf("malloc_backtrace %zd\n", malloc_backtrace(block, frames, 4));
  get_malloc_leak_info(NULL, &overall, &info_size, &total, &bt_size);
  printf("after NULL\n");
  free_malloc_leak_info((uint8_t *)block);
  strcpy(block, "still mine");
  printf("%s\n", block);
  free(block);
  return 0;
}
// OFF: mdebug: get_malloc_leak_info: Allocations not being tracked, to enable set the option 'backtrace'.
// OFF-NEXT: info NULL overall 0 info_size 0 total 0 backtrace_size 0
// OFF-NEXT: malloc_backtrace 0
// OFF-NEXT: mdebug: get_malloc_leak_info: At least one invalid parameter.
// OFF-NEXT: after NULL
// OFF-NEXT: mdebug: free_malloc_leak_info(0x{{[0-9a-f]+}}): not a buffer from get_malloc_leak_info; ignored
// OFF-NEXT: still mine
// OFF-NOT: mdebug
// ON-NOT: not being tracked
// ON: info set overall {{[1-9][0-9]*}} info_size 144 total {{[1-9][0-9]*}} backtrace_size 16
// ON-NEXT: malloc_backtrace {{[1-9][0-9]*}}
// ON-NEXT: mdebug: get_malloc_leak_info: At least one invalid parameter.
// ON-NEXT: after NULL
// ON-NEXT: mdebug: free_malloc_leak_info(0x{{[0-9a-f]+}}): not a buffer from get_malloc_leak_info; ignored
// ON-NEXT: still mine
