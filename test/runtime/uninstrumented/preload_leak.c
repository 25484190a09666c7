// Proves: a program built with plain clang and run with
// LD_PRELOAD=libmdebug-rt.so gets its leak reported (with the return
// address in the program named as a frame: function and source line from
// its debug information, by llvm-symbolizer),
// while libc's own blocks are not blamed on it.
// RUN: %clang -g -rdynamic %s -o %t
// RUN: %not env LD_PRELOAD=%mdebug_rt_so %t 2>&1 | %FileCheck %s
// RUN: %not env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=backtrace %t 2>&1 | %FileCheck %s --check-prefix=BT
// RUN: env LD_PRELOAD=%mdebug_rt_so %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

char *make_buffer(void) { return malloc(123); }

int main(int argc, char **argv) {
  printf("plain program\n");
  char *buffer = make_buffer();
  buffer[0] = 0;
  if (argc > 1)
    free(buffer);
  return 0;
}
// CHECK-NOT: mdebug: ERROR
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 123 bytes leaked in 1 block
// CHECK-NEXT: 123 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in make_buffer {{.*}}preload_leak.c:13:{{[0-9]+}} ({{.*}}preload_leak.c.tmp){{$}}
// CHECK-NEXT: +++ {{.*}} leaked block of size 123 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK: mdebug: SUMMARY: 0 errors, 123 bytes leaked in 1 block
// The site's pc and its stack's first frame are the same address (the call,
// return address - 1).
// BT: allocated by malloc at pc [[PC:0x[0-9a-f]+]] in make_buffer {{.*}}preload_leak.c:{{[0-9]+}}:{{[0-9]+}} ({{.*}}preload_leak.c.tmp){{$}}
// BT-NEXT: Backtrace at time of allocation:
// BT-NEXT: #00 pc [[PC]] in make_buffer {{.*}}preload_leak.c:{{[0-9]+}}:{{[0-9]+}} ({{.*}}preload_leak.c.tmp){{$}}
// CLEAN-NOT: mdebug
// CLEAN: plain program
// CLEAN-NOT: mdebug
