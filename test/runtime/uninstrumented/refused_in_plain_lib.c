// Proves: a request refused in code that was not instrumented (a library
// built with plain clang calling malloc) is reported as too big at the
// caller's return address, "pc ... libplain.so (plain_alloc+N)", then gets
// NULL like any other; the program's own requests are named by line.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -g -shared -fPIC %S/../../Inputs/plain_lib.c -o %t.dir/libplain.so
// RUN: %mdebug_clang -g %s -L%t.dir -lplain -Wl,-rpath,%t.dir -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *plain_alloc(size_t n);
void plain_free(void *p);

int main(int argc, char **argv) {
  size_t n = argc == 1 ? SIZE_MAX - 7 : 4096; /* the bug: a negative size */
  void *p = plain_alloc(n);
  fprintf(stderr, "plain_alloc: %s\n", p ? "a block" : "NULL");
  plain_free(p);
  return 0;
}
// CHECK:      mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 18446744073709551608 BYTES TOO BIG (malloc)
// CHECK-NEXT:   requested size 0xfffffffffffffff8 exceeds the maximum allocation size 0x10000000000 (1099511627776 bytes, max_allocation_size)
// CHECK-NEXT:   requested by malloc at pc 0x{{[0-9a-f]+}} in plain_alloc{{[+ ].*}} ({{.*}}.dir/libplain.so)
// CHECK-NEXT:   malloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: plain_alloc: NULL
// CHECK-NEXT: mdebug: SUMMARY: 1 error (1 allocation size too big), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: plain_alloc: a block
// CLEAN-NOT: mdebug
