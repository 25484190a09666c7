// Proves: backtrace under an address-space limit (ulimit -v 1 GiB) is not
// fatal: the stack depot, which reserves 1 GiB, takes a smaller reservation
// (at most an eighth of the limit), says so in one line, and stacks are
// still recorded (the leak's stack is shown). It used to stop the program
// ("cannot reserve memory for the stack depot", exit 127). The clean run
// has no limit and no such line.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: sh -c 'ulimit -v 1048576 && MDEBUG_OPTIONS=backtrace %python %S/../../Inputs/exit_status.py %t' 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void *make(void) { return malloc(33); }

int main(int argc, char **argv) {
  void *p = make();
  printf("allocated %d\n", p != NULL);
  if (argc > 1)
    free(p);
  p = NULL;
  return 0;
}
// CHECK: mdebug: cannot reserve 1024 MiB for the stack depot (Cannot allocate memory); it holds 128 MiB of stacks, those after are not recorded
// CHECK: allocated 1
// CHECK: Direct leak of 33 bytes in 1 block:
// CHECK: Backtrace at time of allocation:
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in make {{.*}}
// CHECK: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: allocated 1
// CLEAN-NOT: mdebug
