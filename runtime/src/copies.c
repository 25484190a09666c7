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
 * wins). A copy compares such addresses with its own code, the sections
 * mdebug_text and mdebug_cold (base.h). Needs no lock and no call; never
 * allocates.
 *
 * One exception: a non-PIE executable that takes `malloc`'s address (Python,
 * node) holds an undefined `malloc` with a value, its PLT entry, which the
 * dynamic linker gives every address taken elsewhere so that function
 * pointers compare equal; its calls still reach the first definition in the
 * search list. When `malloc`'s address is not this copy's, the copy reads
 * the dynamic symbol tables of the objects loaded before it: if none of them
 * defines `malloc`, the program's calls reach this copy, which is active.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "copies.h"
#include "lock.h"
#include "log.h"
#include "mdebug/mdebug.h"
#include "platform.h"

/* Every symbol the runtime exports, declared without visibility so that
 * taking its address reads the global offset table. */
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  extern RET __mdebug_##NAME MD_WITH_SITE PARAMS;                              \
  extern RET SYMBOL PARAMS;
#include "mdebug/abi.def"
extern void __mdebug_version_mismatch_check_v7(void);
extern void __mdebug_copy_loaded_v1(const void *text_begin,
                                    const void *text_end);

int md_copy_role;
struct md_forward md_forward;
static md_lock_t decide_lock = MD_LOCK_INIT;

static bool own(const void *fn) { return md_runtime_code((uintptr_t)fn); }

/* fn, unless it is this copy's own (there is nothing else to call). */
#define ELSEWHERE(fn) (own((const void *)(fn)) ? NULL : (fn))

static void fill_forward(void) {
  struct md_forward *f = &md_forward;
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  f->site_##NAME = ELSEWHERE(&__mdebug_##NAME);                                \
  f->plain_##NAME = ELSEWHERE(&SYMBOL);
#include "mdebug/abi.def"
  f->version_check = ELSEWHERE(&__mdebug_version_mismatch_check_v7);
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

/* This object's dynamic section; in an executable, the executable's. */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((weak, visibility("hidden")));

/* A dynamic section's address, relocated by the loader or not (the vDSO's
 * is not). */
static const void *dyn_ptr(const struct link_map *map, ElfW(Addr) ptr) {
  return (const void *)(ptr < map->l_addr ? ptr + map->l_addr : ptr);
}

static uint32_t gnu_hash(const char *name) {
  uint32_t h = 5381;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++)
    h = h * 33 + *c;
  return h;
}

static uint32_t sysv_hash(const char *name) {
  uint32_t h = 0;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
    h = (h << 4) + *c;
    uint32_t g = h & 0xf0000000u;
    h ^= g >> 24;
    h &= ~g;
  }
  return h;
}

static bool defines_sym(const ElfW(Sym) * sym, const char *strtab,
                        const char *name) {
  int type = ELF64_ST_TYPE(sym->st_info);
  if (sym->st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_GNU_IFUNC))
    return false;
  const char *s = strtab + sym->st_name;
  while (*s && *s == *name)
    s++, name++;
  return *s == *name;
}

/* Whether the object `map` defines the function `name` in its dynamic
 * symbol table (an undefined entry with a value, a canonical PLT entry, is
 * not a definition), looked up by its GNU or SysV hash table. */
static bool object_defines(const struct link_map *map, const char *name) {
  const ElfW(Sym) *symtab = NULL;
  const char *strtab = NULL;
  const uint32_t *gnu = NULL, *sysv = NULL;
  for (const ElfW(Dyn) *d = map->l_ld; d && d->d_tag != DT_NULL; d++) {
    if (d->d_tag == DT_SYMTAB)
      symtab = dyn_ptr(map, d->d_un.d_ptr);
    else if (d->d_tag == DT_STRTAB)
      strtab = dyn_ptr(map, d->d_un.d_ptr);
    else if (d->d_tag == DT_GNU_HASH)
      gnu = dyn_ptr(map, d->d_un.d_ptr);
    else if (d->d_tag == DT_HASH)
      sysv = dyn_ptr(map, d->d_un.d_ptr);
  }
  if (!symtab || !strtab)
    return false;
  if (gnu) {
    uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_size = gnu[2];
    if (nbuckets == 0)
      return false;
    const uint32_t *buckets =
        (const uint32_t *)((const ElfW(Addr) *)(gnu + 4) + bloom_size);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t h = gnu_hash(name);
    uint32_t i = buckets[h % nbuckets];
    if (i < symoffset)
      return false;
    for (;; i++) {
      uint32_t ch = chain[i - symoffset];
      if ((ch | 1) == (h | 1) && defines_sym(&symtab[i], strtab, name))
        return true;
      if (ch & 1)
        return false;
    }
  }
  if (sysv) {
    uint32_t nbucket = sysv[0];
    const uint32_t *bucket = sysv + 2, *chain = bucket + nbucket;
    if (nbucket == 0)
      return false;
    for (uint32_t i = bucket[sysv_hash(name) % nbucket]; i != STN_UNDEF;
         i = chain[i])
      if (defines_sym(&symtab[i], strtab, name))
        return true;
  }
  return false;
}

/* Whether the program's calls of malloc reach this copy although its
 * address is not this copy's: no object loaded before this one defines it
 * (the executable's canonical PLT entry does not count). */
static bool first_definition(void) {
  if (!_DYNAMIC)
    return false;
  for (const struct link_map *map = _r_debug.r_map; map; map = map->l_next) {
    if (map->l_ld == _DYNAMIC)
      return true;
    if (object_defines(map, "malloc"))
      return false;
  }
  return false;
}

bool md_copy_decide(void) {
  md_lock(&decide_lock);
  int role = md_copy_role;
  if (role == MD_COPY_UNDECIDED) {
    if (own((const void *)&malloc) || first_definition()) {
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
    /* Both sections, one call each (the active copy keeps each range, a
     * copy of any version the same way). */
    loaded(__start_mdebug_text, __stop_mdebug_text);
    if (__start_mdebug_cold != __stop_mdebug_cold)
      loaded(__start_mdebug_cold, __stop_mdebug_cold);
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
