// Proves: running out of memory is never fatal. Under an address-space limit
// (ulimit -v 400000, as a loop of small allocations meets it), malloc
// returns NULL with ENOMEM like glibc's, the program frees what it got and
// goes on allocating; and an alignment of 1 GiB (beyond any size class) is
// honoured when memory allows. The clean run has no limit. (leak_check=0:
// the memory the exit-time leak check needs is gone too.)
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: sh -c 'ulimit -v 400000 && MDEBUG_OPTIONS=leak_check=0 %t' 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=FREE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  void **list = NULL;
  size_t n = 0, cap = 0;
  int err = 0;
  for (;;) {
    void *p = malloc(4000);
    if (!p) {
      err = errno;
      break;
    }
    if (n == cap) {
      void **bigger = realloc(list, (cap = cap ? cap * 2 : 1024) * sizeof(void *));
      if (!bigger) {
        err = errno;
        free(p);
        break;
      }
      list = bigger;
    }
    list[n++] = p;
    if (n == 2000000)
      break; /* no limit: stop at 8 GB */
  }
  printf("stopped after %s MB: %s\n", n * 4000 > (250u << 20) ? "over 250" : "under 250",
         err == ENOMEM ? "NULL, errno ENOMEM" : n == 2000000 ? "no failure" : "?");
  for (size_t i = 0; i < n; i++)
    free(list[i]);
  free(list);
  void *again = malloc(4000);
  printf("after freeing: %s\n", again ? "malloc works" : "malloc fails");
  free(again);
  void *big = aligned_alloc((size_t)1 << 30, 100);
  printf("1 GiB alignment: %s\n", !big ? "NULL" : ((uintptr_t)big & ((1u << 30) - 1)) ? "misaligned" : "aligned");
  free(big);
  return 0;
}
// CHECK: stopped after over 250 MB: NULL, errno ENOMEM
// CHECK-NEXT: after freeing: malloc works
// CHECK-NEXT: 1 GiB alignment: NULL
// CHECK-NOT: mdebug
// FREE: stopped after over 250 MB: no failure
// FREE-NEXT: after freeing: malloc works
// FREE-NEXT: 1 GiB alignment: aligned
// FREE-NOT: mdebug
