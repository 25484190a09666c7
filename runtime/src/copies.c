/* copies.c - one runtime per process, however many copies are loaded.
 *
 * A process can hold several copies of the runtime: libmdebug-rt.a linked
 * into the executable, libmdebug-rt.so needed by an instrumented shared
 * library (at start or through dlopen), or preloaded. The copy the dynamic
 * linker binds `malloc` to owns the process's heap: it is the active copy.
 * Every other copy is inert: its constructor starts nothing (no
 * initialisation, exit handler, signal handler or thread), and each of its
 * exported functions passes the call on: to the active copy's __mdebug_*
 * entry point, which every copy exports (a standard symbol's caller address
 * becomes the site, md_origin_pc), or, when the process has no mdebug entry
 * points in reach (an instrumented library dlopen'ed by a program that
 * neither links nor preloads the runtime), to the process's own function,
 * unchecked. So a block never meets two heaps, and whatever reaches an inert
 * copy ends in the active copy's entry points.
 *
 * Which copy a symbol resolves to is read from this copy's own global
 * offset table: the address of `malloc` taken here, in a file that does not
 * define it, is the one the dynamic linker bound (in an executable the
 * static linker binds it to the executable's own definition, which always
 * wins). A copy compares such addresses with its own code, the section
 * mdebug_text (internal.h). Needs no lock and no call; never allocates.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lock.h"
#include "mdebug/mdebug.h"

extern char __start_mdebug_text[] __attribute__((weak, visibility("hidden")));
extern char __stop_mdebug_text[] __attribute__((weak, visibility("hidden")));

/* Every symbol the runtime exports, declared without visibility so that
 * taking its address reads the global offset table. */
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  extern RET __mdebug_##NAME MD_WITH_SITE PARAMS;                              \
  extern RET SYMBOL PARAMS;
#include "mdebug/abi.def"
extern void __mdebug_version_mismatch_check_v5(void);
extern void __mdebug_copy_loaded_v1(const void *text_begin,
                                    const void *text_end);

int md_copy_role;
struct md_forward md_forward;
static md_lock_t decide_lock = MD_LOCK_INIT;

static bool own(const void *fn) {
  return (const char *)fn >= __start_mdebug_text &&
         (const char *)fn < __stop_mdebug_text;
}

/* fn, unless it is this copy's own (there is nothing else to call). */
#define ELSEWHERE(fn) (own((const void *)(fn)) ? NULL : (fn))

static void fill_forward(void) {
  struct md_forward *f = &md_forward;
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  f->site_##NAME = ELSEWHERE(&__mdebug_##NAME);                                \
  f->plain_##NAME = ELSEWHERE(&SYMBOL);
#include "mdebug/abi.def"
  f->version_check = ELSEWHERE(&__mdebug_version_mismatch_check_v5);
  f->check_leaks = ELSEWHERE(&mdebug_check_leaks);
  f->dump_heap = ELSEWHERE(&mdebug_dump_heap);
  f->ignore = ELSEWHERE(&mdebug_ignore);
  f->register_root = ELSEWHERE(&mdebug_register_root);
  f->unregister_root = ELSEWHERE(&mdebug_unregister_root);
  f->get_leak_info = ELSEWHERE(&get_malloc_leak_info);
  f->free_leak_info = ELSEWHERE(&free_malloc_leak_info);
  f->backtrace = ELSEWHERE(&malloc_backtrace);
  f->snapshot = ELSEWHERE(&mdebug_snapshot);
  f->track = ELSEWHERE(&mdebug_track);
  /* The C calls always reach libc's functions when nothing else: libc is in
   * the global scope, ahead of any library needed by one in it. */
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  if (md_op_family(MD_OP_##NAME) == MD_FAMILY_MALLOC && !f->site_##NAME &&     \
      !f->plain_##NAME)                                                        \
    md_die(                                                                    \
        "an inactive copy of the mdebug runtime has nowhere to pass " #SYMBOL  \
        " on to");
#include "mdebug/abi.def"
}

bool md_copy_decide(void) {
  md_lock(&decide_lock);
  int role = md_copy_role;
  if (role == MD_COPY_UNDECIDED) {
    if (own((const void *)&malloc)) {
      role = MD_COPY_ACTIVE;
    } else {
      fill_forward();
      role = MD_COPY_INERT;
    }
    __atomic_store_n(&md_copy_role, role, __ATOMIC_RELEASE);
  }
  md_unlock(&decide_lock);
  return role == MD_COPY_ACTIVE;
}

void md_copy_announce(void) {
  void (*loaded)(const void *, const void *) =
      ELSEWHERE(&__mdebug_copy_loaded_v1);
  if (loaded) {
    loaded(__start_mdebug_text, __stop_mdebug_text);
    return;
  }
  if (md_forward.site_malloc)
    return; /* an older active copy: it checks, without hearing of us */
  Dl_info self;
  const char *path = "libmdebug-rt.so";
  if (dladdr((void *)md_copy_announce, &self) && self.dli_fname)
    path = self.dli_fname;
  md_log("mdebug: %s: the program does not export mdebug's entry points "
         "(build it with mdebug-clang, or start it with LD_PRELOAD=%s): "
         "allocations by instrumented libraries go to the program's malloc, "
         "without their sites",
         path, path);
}
