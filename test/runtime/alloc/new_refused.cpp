// Proves: operator new and new[] of a size over the maximum allocation size
// are reported at their site as too big; the throwing forms then throw
// std::bad_alloc at once, without calling the installed new-handler (which
// returns, as one that freed a reserve would: retrying would loop forever),
// and the nothrow forms return NULL. An aligned new whose alignment is not a
// power of two is an invalid allocation alignment, refused the same way.
// With allocator_may_return_null nothing is reported, and the throwing forms
// still throw (they never return NULL).
// RUN: %mdebug_clangxx -g -std=c++17 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <cstdio>
#include <cstdlib>
#include <new>

static int handler_calls;
static void handler() { handler_calls++; }

int main(int argc, char **argv) {
  std::set_new_handler(handler);
  volatile size_t huge = ((size_t)1 << 40) + argc; /* just over 1 TiB */
  try {
    char *p = new char[huge];
    std::fprintf(stderr, "new[]: a block\n");
    delete[] p;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "new[]: bad_alloc, handler called %d times\n",
                 handler_calls);
  }
  char *q = new (std::nothrow) char[huge];
  std::fprintf(stderr, "new[](nothrow): %s\n", q ? "a block" : "NULL");
  try {
    void *r = ::operator new(64, std::align_val_t(24));
    std::fprintf(stderr, "new(align 24): a block\n");
    ::operator delete(r, std::align_val_t(24));
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "new(align 24): bad_alloc, handler called %d times\n",
                 handler_calls);
  }
  return 0;
}
// CHECK:      mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1099511627777 BYTES TOO BIG (operator new[])
// CHECK-NEXT:   requested size 0x10000000001 exceeds the maximum allocation size 0x10000000000 (1099511627776 bytes, max_allocation_size)
// CHECK-NEXT:   requested by operator new[] at {{.*}}new_refused.cpp:23:15 (main)
// CHECK-NEXT:   operator new[] throws std::bad_alloc (its new-handler is not called: no handler can make this request possible)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: new[]: bad_alloc, handler called 0 times
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1099511627777 BYTES TOO BIG (operator new[])
// CHECK-NEXT:   requested size 0x10000000001 exceeds the maximum allocation size 0x10000000000 (1099511627776 bytes, max_allocation_size)
// CHECK-NEXT:   requested by operator new[] at {{.*}}new_refused.cpp:30:13 (main)
// CHECK-NEXT:   operator new[] (nothrow) returns NULL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: new[](nothrow): NULL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: invalid allocation alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 24 INVALID (aligned operator new)
// CHECK-NEXT:   alignment 24 (for 64 bytes) is not a power of two
// CHECK-NEXT:   requested by aligned operator new at {{.*}}new_refused.cpp:33:15 (main)
// CHECK-NEXT:   aligned operator new throws std::bad_alloc (its new-handler is not called: no handler can make this request possible)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: new(align 24): bad_alloc, handler called 0 times
// CHECK-NEXT: mdebug: SUMMARY: 3 errors (2 allocation size too big, 1 invalid allocation alignment), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: new[]: bad_alloc, handler called 0 times
// CLEAN-NEXT: new[](nothrow): NULL
// CLEAN-NEXT: new(align 24): bad_alloc, handler called 0 times
// CLEAN-NOT: mdebug
