// Proves: an allocation made by a library's own static wrapper calling
// malloc through a function pointer (libuv's uv__malloc, a replaceable
// allocator) is named at that call's file:line when the wrapper was
// compiled by mdebug (the pass gives such indirect calls a site); built
// with plain clang (only linked with mdebug), the pass cannot see the call,
// and the wrapper is named from the module's full symbol table (static
// functions too): `pc OFFSET  module (wrapper+N)`. Either way the report
// says which function allocated, and a `leak:WRAPPER` suppression matches
// it. The clean run frees the block.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: echo "leak:lib_malloc_wrapper" > %t.supp
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s --check-prefix=SUPPRESSED --allow-empty
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %clang -g -O1 -fno-omit-frame-pointer -c %s -o %t.plain.o
// RUN: %mdebug_clang %t.plain.o -o %t.plain
// RUN: %not %t.plain 2>&1 | %FileCheck %s --check-prefix=PLAIN
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t.plain 2>&1 | %FileCheck %s --check-prefix=SUPPRESSED --allow-empty
// RUN: %t.plain clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

struct allocator {
  void *(*alloc)(size_t);
  void (*release)(void *);
};
/* Set at run time, so that the compiler cannot turn the calls back into
 * direct calls of malloc and free. */
static struct allocator lib_allocator;

static __attribute__((noinline)) void *lib_malloc_wrapper(size_t n) {
  void *p = lib_allocator.alloc(n);
  __asm__ volatile("" ::: "memory"); /* no tail call */
  return p;
}

int main(int argc, char **argv) {
  lib_allocator.alloc = argc > 0 ? malloc : NULL;
  lib_allocator.release = free;
  char *kept = lib_malloc_wrapper(23);
  memcpy(kept, "Unknown system error 1", 23);
  if (argc > 1 && !strcmp(argv[1], "clean"))
    lib_allocator.release(kept);
  kept = NULL;
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in
// CHECK: Direct leak of 23 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}allocator_pointer.c:32:13 (lib_malloc_wrapper){{$}}
// CHECK: mdebug: SUMMARY: 0 errors, 23 bytes leaked in 1 block
// PLAIN: Direct leak of 23 bytes in 1 block:
// PLAIN-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in lib_malloc_wrapper{{[+ ].*}} ({{.*}}allocator_pointer.c.tmp.plain){{$}}
// PLAIN: mdebug: SUMMARY: 0 errors, 23 bytes leaked in 1 block
// SUPPRESSED-NOT: mdebug
// CLEAN-NOT: mdebug
