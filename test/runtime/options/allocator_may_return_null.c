// Proves: allocator_may_return_null makes every refused request glibc's
// quiet one: no report, no error in the summary, the program's own exit
// status; malloc, realloc, calloc, reallocarray, pvalloc give NULL with errno
// ENOMEM, memalign and aligned_alloc NULL with errno EINVAL, posix_memalign
// EINVAL with errno untouched. Without the option each is reported (8
// errors, exit status 23). The flag takes no value.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=QUIET
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=LOUD
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null=1 %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=BAD
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *call, void *p) {
  fprintf(stderr, "%s: %s, errno %s\n", call, p ? "a block" : "NULL",
          errno == ENOMEM ? "ENOMEM" : errno == EINVAL ? "EINVAL" : "0");
  free(p);
}

int main(void) {
  char *keep = malloc(16);
  errno = 0;
  show("malloc", malloc(SIZE_MAX));
  errno = 0;
  show("realloc", realloc(keep, SIZE_MAX - 1));
  errno = 0;
  show("calloc", calloc(SIZE_MAX, 2));
  errno = 0;
  show("reallocarray", reallocarray(keep, SIZE_MAX, 3));
  errno = 0;
  show("pvalloc", pvalloc(SIZE_MAX));
  errno = 0;
  show("memalign", memalign(24, 8));
  errno = 0;
  show("aligned_alloc", aligned_alloc(24, 48));
  errno = 0;
  void *p = keep;
  int rc = posix_memalign(&p, 12, 8);
  fprintf(stderr, "posix_memalign: %s, %s, errno %d\n",
          rc == EINVAL ? "EINVAL" : "?", p == keep ? "unchanged" : "CHANGED",
          errno);
  free(keep);
  return 0;
}
// QUIET-NOT: mdebug
// QUIET:      malloc: NULL, errno ENOMEM
// QUIET-NEXT: realloc: NULL, errno ENOMEM
// QUIET-NEXT: calloc: NULL, errno ENOMEM
// QUIET-NEXT: reallocarray: NULL, errno ENOMEM
// QUIET-NEXT: pvalloc: NULL, errno ENOMEM
// QUIET-NEXT: memalign: NULL, errno EINVAL
// QUIET-NEXT: aligned_alloc: NULL, errno EINVAL
// QUIET-NEXT: posix_memalign: EINVAL, unchanged, errno 0
// QUIET-NEXT: exit status: 0
// LOUD: mdebug: SUMMARY: 8 errors (2 allocation size too big, 1 calloc overflow, 1 reallocarray overflow, 1 pvalloc overflow, 1 invalid allocation alignment, 1 invalid aligned_alloc alignment, 1 invalid posix_memalign alignment), 0 bytes leaked in 0 blocks
// LOUD-NEXT: exit status: 23
// BAD: mdebug: MDEBUG_OPTIONS: value set for option 'allocator_may_return_null' which does not take a value; ignoring MDEBUG_OPTIONS (running with the defaults)
// BAD: mdebug: SUMMARY: 8 errors
