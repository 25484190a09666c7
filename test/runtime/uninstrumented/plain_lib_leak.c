// Proves: a leak inside a shared library built without mdebug is still
// reported, its site given as the return address in that library:
// "pc OFFSET  /path/libplain.so (plain_leak+N)".
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -g -shared -fPIC %S/../../Inputs/plain_lib.c -o %t.dir/libplain.so
// RUN: %mdebug_clang -g %s -L%t.dir -lplain -Wl,-rpath,%t.dir -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stddef.h>

void plain_leak(size_t n);
void *plain_alloc(size_t n);
void plain_free(void *p);

int main(int argc, char **argv) {
  if (argc == 1)
    plain_leak(300);
  else
    plain_free(plain_alloc(300));
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 300 bytes leaked in 1 block
// CHECK-NEXT: 300 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in plain_leak{{[+ ].*}} ({{.*}}.dir/libplain.so)
// CHECK-NEXT: +++ {{.*}} leaked block of size 300 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK: mdebug: SUMMARY: 0 errors, 300 bytes leaked in 1 block
// CLEAN-NOT: mdebug
