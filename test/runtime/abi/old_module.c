// Proves: an object built by the pass of the previous ABI (5: constant site
// descriptors, whose word the runtime now writes, and a constructor calling
// __mdebug_version_mismatch_check_v5) is refused at link time by the
// current runtime, the linker naming the object and the old version's check;
// the same object as the current pass emits it (a writable descriptor, the
// current check) links, runs and has its site named in the leak report.
// RUN: %mdebug_clang -g -c %s -o %t.old.o
// RUN: %not %mdebug_clang %t.old.o -o %t.old 2>&1 | %FileCheck %s
// RUN: %mdebug_clang -g -DCURRENT -c %s -o %t.o
// RUN: %mdebug_clang %t.o -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CURRENT
#include <mdebug/site.h>
#include <stddef.h>

#ifdef CURRENT
#define VERSION_CHECK __mdebug_version_mismatch_check_v7
#define DESCRIPTOR /* writable */
#else
#define VERSION_CHECK __mdebug_version_mismatch_check_v5
#define DESCRIPTOR const
#endif

void VERSION_CHECK(void);
void *__mdebug_malloc(size_t size, const struct mdebug_site *site);

__attribute__((constructor)) static void module_ctor(void) { VERSION_CHECK(); }

/* What the pass emits for the malloc at line 35, column 10. */
__attribute__((section(MDEBUG_SITE_SECTION), used, aligned(8))) static DESCRIPTOR
    struct mdebug_site site = {1, __FILE__, "main", 35, 10, 0, 0, NULL};

static void *volatile kept;

int main(void) {
  kept = __mdebug_malloc(40, &site);
  kept = 0;
  return 0;
}
// CHECK: {{.*}}.old.o: in function `module_ctor':
// CHECK: undefined reference to `__mdebug_version_mismatch_check_v5'
// CHECK-NOT: undefined reference
// CURRENT: allocated by malloc at {{.*}}old_module.c:35:10 (main)
// CURRENT: mdebug: SUMMARY: 0 errors, 40 bytes leaked in 1 block
