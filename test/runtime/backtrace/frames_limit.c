// Proves: backtrace=N records at most N frames, the innermost ones (bt=2:
// the allocating function and its caller only), while bare `bt` records
// the whole 4-deep stack down to libc.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=bt=2 %not %t 2>&1 | %FileCheck %s --check-prefix=TWO
// RUN: env MDEBUG_OPTIONS=bt %not %t 2>&1 | %FileCheck %s --check-prefix=ALL
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void lose(void) { memset(malloc(5), 0, 5); }
__attribute__((noinline)) void inner(void) { lose(); }
__attribute__((noinline)) void outer(void) { inner(); }

int main(void) {
  outer();
  return 0;
}
// TWO: Backtrace at time of allocation:
// TWO-NEXT: #00 pc 0x{{[0-9a-f]+}} in lose{{[+ ].*}} ({{.*}})
// TWO-NEXT: #01 pc 0x{{[0-9a-f]+}} in inner{{[+ ].*}} ({{.*}})
// TWO-NEXT: +++ {{.*}} leaked block of size 5
// ALL: Backtrace at time of allocation:
// ALL-NEXT: #00 pc 0x{{[0-9a-f]+}} in lose{{[+ ].*}} ({{.*}})
// ALL-NEXT: #01 pc 0x{{[0-9a-f]+}} in inner{{[+ ].*}} ({{.*}})
// ALL-NEXT: #02 pc 0x{{[0-9a-f]+}} in outer{{[+ ].*}} ({{.*}})
// ALL-NEXT: #03 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// ALL-NEXT: #04 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// ALL-NEXT: +++ {{.*}} leaked block of size 5
