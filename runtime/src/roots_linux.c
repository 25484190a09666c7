/* roots_linux.c - the memory a leak scan treats as roots while the other
 * threads are stopped (stop_linux.c): writable segments of loaded modules,
 * each stopped thread's stack (and, for one stopped in a handler on its
 * sigaltstack, that stack as well as its own), saved registers, static TLS
 * and descriptor, the descriptors of threads that have exited but are not
 * yet joined (their return value lives there), and the regions the program
 * registered.
 *
 * Before a stop, md_roots_prepare takes the registered-roots lock (no
 * stopped thread may hold it). After the stop, /proc/self/maps is read,
 * when no other thread can change the address space, so stack bounds are
 * exact and no region handed to a scan has an unreadable page; the modules
 * are found in it too, from their ELF headers, never through the loader
 * (dl_iterate_phdr's lock may be held for good by a thread parked in one of
 * its callbacks). The maps file is opened at start-up (and again in a
 * forked child) and kept, so a program that later lowers RLIMIT_NOFILE or
 * runs out of descriptors can still be checked.
 *
 * Never allocates through malloc (mmap'ed arrays, kept between stops);
 * files are read with raw system calls, the maps file by procmaps.c's
 * reader into an mmap'ed buffer. Nothing here stores a pointer to a
 * user block where a scan would see it: registered regions are kept
 * bit-inverted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>

#include "base.h"
#include "arch_x86_64.h"
#include "log.h"
#include "platform.h"
#include "platform_linux.h"
#include "roots.h"
#include "scan_contract.h"
#include "stop.h"

#define MAX_ROOTS 256
#define MAX_DESCRIPTORS 65536 /* exited, unjoined threads looked at */

/* A line of /proc/self/maps. */
struct mapping {
  uintptr_t start, end;
  bool readable;
  bool exec;
  bool file_start; /* a file mapped from its offset 0: maybe an ELF module */
  bool main_stack; /* [stack]: the main thread's */
};

/* A writable PT_LOAD segment; `loader`: of ld.so (AT_BASE), whose words
 * pointing at a mapping's start are stale (scan_contract.h). */
struct segment {
  uintptr_t begin, end;
  bool loader;
};

/* From ld.so and libc (GLIBC_PRIVATE; weak, so another libc only loses what
 * they give): the static TLS size, and the layout libthread_db reads to
 * list threads (each a {bits, count, offset} triple). */
extern void _dl_get_tls_static_info(size_t *size, size_t *align)
    __attribute__((weak));
extern char _rtld_global[] __attribute__((weak));
extern const uint32_t _thread_db_rtld_global__dl_stack_used[3]
    __attribute__((weak));
extern const uint32_t _thread_db_rtld_global__dl_stack_user[3]
    __attribute__((weak));
extern const uint32_t _thread_db_pthread_list[3] __attribute__((weak));
extern const uint32_t _thread_db_pthread_tid[3] __attribute__((weak));
extern const uint32_t _thread_db_sizeof_pthread __attribute__((weak));

static bool list_modules(void);
static size_t tls_static_size; /* static TLS and descriptor, from ld.so */
static size_t tls_below;       /* how far below tp the modules' TLS reaches */
static struct segment *segments;
static size_t segment_count, segment_capacity;
static struct mapping *maps;
static size_t map_count, map_capacity;
static char *maps_text; /* the maps reader's buffer, mmap'ed once */
static size_t maps_text_capacity;

/* /proc/PID/maps, opened ahead of time; checked before use (a program may
 * close it, or put another file at its number). */
static struct md_kept_fd maps_kept = {.fd = -1};
/* /proc/self/pagemap, for md_roots_each_present when swap is configured. */
static struct md_kept_fd pagemap_kept = {.fd = -1};
static bool swap_configured; /* sysinfo's totalswap, read for each stop */
static int pagemap_fd;       /* pagemap_kept's, if still ours; else -1 */

/* ---- registered roots, under roots_lock ---------------------------------- */
static struct {
  uintptr_t inv_begin; /* ~begin: never seen as a pointer by a scan */
  size_t size;
} roots[MAX_ROOTS];
static size_t root_count;
static int roots_lock;

/* ---- growable mmap'ed arrays --------------------------------------------- */

static bool grow(void **array, size_t *capacity, size_t elem, size_t want) {
  if (want <= *capacity)
    return true;
  size_t cap = *capacity ? *capacity : 256;
  while (cap < want)
    cap *= 2;
  void *p = md_mmap(cap * elem);
  if (!p)
    return false;
  if (*array) {
    memcpy(p, *array, *capacity * elem);
    md_munmap(*array, *capacity * elem);
  }
  *array = p;
  *capacity = cap;
  return true;
}

/* ---- the maps file --------------------------------------------------------- */

static int open_raw(const char *path) {
  return (int)md_sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
}

/* Whether swap is configured (any page may be swapped out): sysinfo's
 * totalswap; unknown counts as yes. */
static bool swap_on(void) {
  struct sysinfo si;
  return md_sys1(SYS_sysinfo, &si) != 0 || si.totalswap != 0;
}

/* pagemap only where swap is configured: one descriptor fewer taken from
 * the program otherwise. */
void md_roots_open_files(void) {
  md_kept_open(&maps_kept, "/proc/self/maps", O_RDONLY);
  if (swap_on())
    md_kept_open(&pagemap_kept, "/proc/self/pagemap", O_RDONLY);
}

/* The kept maps fd if it is still ours, else a new one (-1 if none). */
static int maps_file(bool *temporary) {
  *temporary = false;
  if (md_kept_valid(&maps_kept) &&
      md_sys3(SYS_lseek, maps_kept.fd, 0, SEEK_SET) == 0)
    return maps_kept.fd;
  *temporary = true;
  return open_raw("/proc/self/maps");
}

/* A mapping of the maps file, as the scan sees it. */
static struct mapping mapping_from(const struct md_maps_entry *e) {
  struct mapping m = {.start = e->start, .end = e->end};
  m.readable = e->readable;
  m.exec = e->exec;
  /* A file mapped from its offset 0: maybe an ELF module. */
  m.file_start = e->offset == 0 && e->path_len && e->path[0] == '/';
  /* [vvar] pages can fault on read (time namespaces); [vsyscall] is
   * execute-only. Neither holds pointers to blocks. */
  const char *name = e->path_len && e->path[0] == '[' ? e->path : NULL;
  size_t n = e->path_len;
  if (name && ((n >= 5 && memcmp(name, "[vvar", 5) == 0) ||
               (n >= 10 && memcmp(name, "[vsyscall]", 10) == 0)))
    m.readable = false;
  m.main_stack = name && n >= 7 && memcmp(name, "[stack]", 7) == 0;
  return m;
}

/* Reads fd into maps[]; 0, or -errno (-ENOMEM: no room for the array). */
static long read_maps(int fd) {
  map_count = 0;
  if (!grow((void **)&maps_text, &maps_text_capacity, 1, 65536))
    return -ENOMEM;
  struct md_maps it;
  struct md_maps_entry e;
  md_maps_open_fd(&it, fd, maps_text, maps_text_capacity);
  while (md_maps_next(&it, &e)) {
    if (e.end <= e.start)
      continue;
    if (!grow((void **)&maps, &map_capacity, sizeof(struct mapping),
              map_count + 1))
      return -ENOMEM;
    maps[map_count++] = mapping_from(&e);
  }
  return it.error;
}

bool md_roots_read_maps(const char **why) {
  swap_configured = swap_on();
  pagemap_fd = swap_configured && md_kept_valid(&pagemap_kept)
                   ? pagemap_kept.fd
                   : -1;
  bool temporary;
  int fd = maps_file(&temporary);
  long err = fd < 0 ? fd : read_maps(fd);
  if (temporary && fd >= 0)
    md_sys1(SYS_close, fd);
  /* /proc/PID/maps reads empty once the main thread has called pthread_exit
   * (a zombie leader has no address space of its own): this thread's view. */
  if (err == 0 && map_count == 0) {
    fd = open_raw("/proc/thread-self/maps");
    err = fd < 0 ? fd : read_maps(fd);
    if (fd >= 0)
      md_sys1(SYS_close, fd);
  }
  if (err == -ENOMEM) {
    *why = "out of memory for the address space map (mmap failed)";
    return false;
  }
  if (err < 0 || map_count == 0) {
    *why = err == -EMFILE || err == -ENFILE
               ? "cannot open /proc/self/maps (no file descriptor left)"
               : "cannot read /proc/self/maps";
    return false;
  }
  if (!list_modules()) {
    *why = "out of memory for the module list (mmap failed)";
    return false;
  }
  return true;
}

/* The index of the first mapping that ends after addr (map_count if none). */
static size_t first_mapping_after(uintptr_t addr) {
  size_t lo = 0, hi = map_count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (maps[mid].end <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The mapping containing addr, or NULL. */
static const struct mapping *mapping_of(uintptr_t addr) {
  size_t lo = first_mapping_after(addr);
  return lo < map_count && maps[lo].start <= addr ? &maps[lo] : NULL;
}

/* Whether [addr, addr + n) is readable. */
static bool readable(uintptr_t addr, size_t n) {
  while (n) {
    const struct mapping *m = mapping_of(addr);
    if (!m || !m->readable)
      return false;
    size_t here = m->end - addr;
    if (here >= n)
      return true;
    addr += here;
    n -= here;
  }
  return true;
}

void md_roots_each_readable(uintptr_t begin, uintptr_t end,
                            void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                            void *arg) {
  uintptr_t run_begin = 0, run_end = 0;
  size_t lo = first_mapping_after(begin);
  for (const struct mapping *m = maps + lo;
       m < maps + map_count && m->start < end; m++) {
    uintptr_t b = m->start > begin ? m->start : begin;
    uintptr_t e = m->end < end ? m->end : end;
    if (m->readable && run_end == b && run_begin < run_end) {
      run_end = e;
      continue;
    }
    if (run_begin < run_end)
      fn(run_begin, run_end, arg);
    run_begin = run_end = 0;
    if (m->readable) {
      run_begin = b;
      run_end = e;
    }
  }
  if (run_begin < run_end)
    fn(run_begin, run_end, arg);
}

/* ---- pages that hold data ------------------------------------------------
 * A large block or an anonymous mapping may be mostly pages never touched
 * (a calloc of 2 GiB with 1 MiB used): reading them costs a fault each
 * (0.7 s for 2 GiB where this was measured, minutes for a TiB; more where
 * a read fault fills a huge page), and they hold only zeros. Which pages
 * hold data is asked of the kernel, 4096 pages at a time:
 *  - no swap configured (sysinfo's totalswap is 0, the common case): a page
 *    of a private anonymous mapping that is not resident (mincore) was
 *    never written, or was discarded (MADV_DONTNEED/MADV_FREE): it reads as
 *    zeros. mincore also answers for shared memory (the page cache), where
 *    this process may not have the page mapped yet.
 *  - swap configured: mincore says "not resident" of a page swapped out,
 *    which may hold the only pointer to a block. /proc/self/pagemap says
 *    present (bit 63) or swapped (bit 62) for each page (no privilege
 *    needed for those bits); a page is read if pagemap or mincore says it
 *    holds data.
 *    Without pagemap (no /proc, a kernel that refuses it, a program that
 *    closed the descriptor kept since start-up, swap turned on after
 *    start-up), every readable page is read: slow, never wrong.
 * mincore answers "resident" for a PROT_NONE page too: the readable parts
 * come first from the maps read for this stop (md_roots_each_readable), so
 * no read can fault. */

enum { CHUNK_PAGES = 4096, PAGE_BYTES = 4096 };
static unsigned char *core_vec;  /* CHUNK_PAGES bytes, mmap'ed once */
static uint64_t *pagemap_vec;    /* CHUNK_PAGES entries, mmap'ed once */

/* vec[i] = whether page i of [at, at + n pages) may hold data. */
static void query_pages(uintptr_t at, size_t n, unsigned char *vec) {
  if (!core_vec || md_sys3(SYS_mincore, at, n * PAGE_BYTES, vec) != 0) {
    memset(vec, 1, n); /* cannot tell: read them */
    return;
  }
  if (!swap_configured) {
    for (size_t i = 0; i < n; i++)
      vec[i] &= 1; /* the other bits are reserved */
    return;
  }
  long got = -1;
  if (pagemap_vec && pagemap_fd >= 0) {
    size_t want = n * sizeof(uint64_t);
    got = md_sys4(SYS_pread64, pagemap_fd, pagemap_vec, want,
                  (at / PAGE_BYTES) * sizeof(uint64_t));
    if (got != (long)want)
      got = -1;
  }
  for (size_t i = 0; i < n; i++)
    vec[i] = (vec[i] & 1) || got < 0 || (pagemap_vec[i] >> 62) != 0;
}

struct present {
  void (*fn)(uintptr_t b, uintptr_t e, void *arg);
  void *arg;
};

static void present_part(uintptr_t b, uintptr_t e, void *arg) {
  struct present *pr = arg;
  uintptr_t run_b = 0, run_e = 0;
  for (uintptr_t at = b & ~(uintptr_t)(PAGE_BYTES - 1); at < e;) {
    size_t left = (e - at + PAGE_BYTES - 1) / PAGE_BYTES;
    size_t n = left < CHUNK_PAGES ? left : CHUNK_PAGES;
    unsigned char one;
    unsigned char *vec = core_vec ? core_vec : &one;
    if (!core_vec)
      n = 1;
    query_pages(at, n, vec);
    for (size_t i = 0; i < n; i++) {
      uintptr_t pb = at + i * PAGE_BYTES, pe = pb + PAGE_BYTES;
      pb = pb < b ? b : pb;
      pe = pe > e ? e : pe;
      if (vec[i] && run_e == pb) {
        run_e = pe;
        continue;
      }
      if (run_b < run_e)
        pr->fn(run_b, run_e, pr->arg);
      run_b = run_e = 0;
      if (vec[i]) {
        run_b = pb;
        run_e = pe;
      }
    }
    at += n * PAGE_BYTES;
  }
  if (run_b < run_e)
    pr->fn(run_b, run_e, pr->arg);
}

void md_roots_each_present(uintptr_t begin, uintptr_t end,
                           void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                           void *arg) {
  if (!core_vec) { /* once; a failure leaves one page a query */
    core_vec = md_mmap(CHUNK_PAGES);
    pagemap_vec = md_mmap(CHUNK_PAGES * sizeof(uint64_t));
  }
  struct present pr = {fn, arg};
  md_roots_each_readable(begin, end, present_part, &pr);
}

/* ---- the modules, from the maps and their ELF headers -------------------
 * Each loaded module's writable PT_LOAD segments (data, bss, relro), found
 * without the loader: dl_iterate_phdr takes the loader's lock, which a
 * thread inside a dl_iterate_phdr callback holds, forever if it parks there
 * (the exit check waited on it for good). Read while the threads are
 * stopped, from the maps of this stop: a mapping of a file from its offset
 * 0 that starts with an ELF header is a module if its program headers lie
 * in that mapping and its first executable segment is mapped executable
 * where the headers put it (a file the program maps to read is not); the
 * load bias is the mapping's start less its first PT_LOAD's page. And the
 * loader must know it: its dynamic section is the l_ld of a link_map on
 * _r_debug's list (read without the loader's lock, as debuggers read it;
 * the list stays walkable while the loader changes it), so code mapped
 * behind the loader's back (valgrind's own tool, a JIT's images) is not
 * taken for a module. A process without that list (static) keeps every
 * module the maps show. The loader's own segments (its base is AT_BASE)
 * are roots of their own kind, "loader" (scan_contract.h). */

extern struct r_debug _r_debug __attribute__((weak));
#define MAX_LINK_MAPS 4096
static uintptr_t *known_ld; /* l_ld of every link_map, mmap'ed once */
static size_t known_ld_count;
static bool loader_list; /* known_ld holds the loader's list */

static void read_link_maps(void) {
  known_ld_count = 0;
  loader_list = false;
  if (!&_r_debug || !readable((uintptr_t)&_r_debug, sizeof(_r_debug)))
    return;
  if (!known_ld && !(known_ld = md_mmap(MAX_LINK_MAPS * sizeof(uintptr_t))))
    return;
  const struct link_map *l = _r_debug.r_map;
  while (l && known_ld_count < MAX_LINK_MAPS &&
         readable((uintptr_t)l, sizeof(*l))) {
    known_ld[known_ld_count++] = (uintptr_t)l->l_ld;
    l = l->l_next;
  }
  loader_list = known_ld_count > 0;
}

static bool loader_knows(uintptr_t dynamic) {
  if (!loader_list)
    return true;
  for (size_t i = 0; i < known_ld_count; i++)
    if (known_ld[i] == dynamic)
      return true;
  return false;
}

static void module_at(const struct mapping *m, bool *ok) {
  uintptr_t base = m->start;
  size_t span = m->end - base;
  if (!m->readable || span < sizeof(ElfW(Ehdr)))
    return;
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) ||
      eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phnum == 0 ||
      eh->e_phoff > span ||
      (size_t)eh->e_phnum * sizeof(ElfW(Phdr)) > span - eh->e_phoff)
    return;
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
  const ElfW(Phdr) *first = NULL, *code = NULL, *dynamic = NULL;
  for (size_t i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type == PT_DYNAMIC)
      dynamic = &ph[i];
    if (ph[i].p_type != PT_LOAD)
      continue;
    if (!first)
      first = &ph[i];
    if (!code && (ph[i].p_flags & PF_X))
      code = &ph[i];
  }
  if (!first || !code || first->p_offset >= PAGE_BYTES)
    return;
  uintptr_t bias = base - (first->p_vaddr & ~(uintptr_t)(PAGE_BYTES - 1));
  const struct mapping *x = mapping_of(bias + code->p_vaddr);
  if (!x || !x->exec)
    return;
  if (loader_list && (!dynamic || !loader_knows(bias + dynamic->p_vaddr)))
    return;
  /* AT_BASE is 0 without an interpreter (static, or ld.so run as the
   * program), where a non-PIE executable's bias is 0 too. */
  uintptr_t interp = getauxval(AT_BASE);
  bool loader = interp != 0 && bias == interp;
  for (size_t i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_W) ||
        ph[i].p_memsz == 0)
      continue;
    if (!grow((void **)&segments, &segment_capacity, sizeof(struct segment),
              segment_count + 1)) {
      *ok = false;
      return;
    }
    uintptr_t begin = bias + ph[i].p_vaddr;
    segments[segment_count++] =
        (struct segment){begin, begin + ph[i].p_memsz, loader};
  }
}

static bool list_modules(void) {
  segment_count = 0;
  read_link_maps();
  bool ok = true;
  for (size_t i = 0; i < map_count && ok; i++)
    if (maps[i].file_start)
      module_at(&maps[i], &ok);
  return ok;
}

/* ---- before the stop ------------------------------------------------------ */

/* The static TLS blocks and the thread descriptor, around tp, from ld.so's
 * size of them all (glibc, x86-64: the descriptor, struct pthread, at and
 * above tp and counted in that size; every module's static TLS block, and
 * the surplus kept for modules loaded later, below). */
static void prepare_tls(void) {
  if (tls_static_size)
    return;
  size_t align;
  if (_dl_get_tls_static_info)
    _dl_get_tls_static_info(&tls_static_size, &align);
  if (tls_static_size == 0) /* not glibc's ld.so? a generous guess */
    tls_static_size = 16384;
  size_t descriptor =
      &_thread_db_sizeof_pthread ? _thread_db_sizeof_pthread : 0;
  tls_below = descriptor < tls_static_size ? tls_static_size - descriptor
                                           : tls_static_size;
}

bool md_roots_prepare(const char **why) {
  (void)why;
  prepare_tls();
  md_pid_lock(&roots_lock); /* no stopped thread may hold it */
  return true;
}

void md_roots_finish(void) { md_pid_unlock(&roots_lock); }

/* ---- the roots ----------------------------------------------------------- */

struct visitor {
  void (*visit)(const struct md_region *r, void *arg);
  void *arg;
};

/* Reports the readable parts of [begin, end), contiguous runs merged, so a
 * scan never faults on a guard page or an unmapped hole. */
static void emit(const struct visitor *v, uintptr_t begin, uintptr_t end,
                 const char *kind, int tid) {
  if (begin >= end)
    return;
  size_t lo = first_mapping_after(begin);
  struct md_region r = {0, 0, kind, tid};
  for (size_t i = lo; i < map_count && maps[i].start < end; i++) {
    uintptr_t b = maps[i].start > begin ? maps[i].start : begin;
    uintptr_t e = maps[i].end < end ? maps[i].end : end;
    if (maps[i].readable && r.end == b && r.begin < r.end) {
      r.end = e;
      continue;
    }
    if (r.begin < r.end)
      v->visit(&r, v->arg);
    r.begin = r.end = 0;
    if (maps[i].readable) {
      r.begin = b;
      r.end = e;
    }
  }
  if (r.begin < r.end)
    v->visit(&r, v->arg);
}

/* ---- a thread on its alternate signal stack -----------------------------
 * A thread stopped while it runs a handler on its sigaltstack has its stack
 * pointer there: its own stack, where the frames it interrupted hold their
 * pointers, lies elsewhere. The kernel's signal frame at the base of the
 * handler's frames says where: struct rt_sigframe (x86-64) is the
 * restorer's address, then a ucontext: uc_flags, uc_link (0), uc_stack (the
 * alternate stack: ss_sp, ss_flags, ss_size) and uc_mcontext (the
 * interrupted registers, rsp among them, cs 0x33). Nobody records another
 * thread's sigaltstack (ptrace cannot ask for it), so the frame is searched
 * for, upward from the stack pointer, as the first words that look like one
 * whose uc_stack holds that pointer; a nested handler's frame gives a stack
 * pointer still on the alternate stack, and the search goes on above it. */

#define FRAME_SEARCH_MAX ((size_t)4 << 20) /* bytes above sp looked at */
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1u << 31)
#endif
/* Offsets from uc_stack: the restorer's address, uc_flags, the end of the
 * general registers in uc_mcontext. */
enum { RESTORER = 24, UC_STACK = 16, UC_MCONTEXT = 40,
       GREGS_END = UC_MCONTEXT - UC_STACK + 8 * NGREG,
       UC_FLAGS_KNOWN = 7, USER_CS = 0x33 };

/* Whether the words at a are the uc_stack of a signal frame whose
 * alternate stack holds sp and lies in [lo, hi): [*base, *top) that stack,
 * *isp the interrupted stack pointer. */
static bool signal_frame_at(uintptr_t a, uintptr_t sp, uintptr_t lo,
                            uintptr_t hi, uintptr_t *base, uintptr_t *top,
                            uintptr_t *isp) {
  const uintptr_t *w = (const uintptr_t *)a;
  uintptr_t ss_sp = w[0], ss_size = w[2];
  uint32_t ss_flags = *(const uint32_t *)(a + 8);
  if (ss_sp > sp || ss_sp < lo || ss_size > hi - ss_sp ||
      sp - ss_sp >= ss_size || (ss_flags & ~(uint32_t)SS_AUTODISARM) != 0)
    return false;
  const uintptr_t *uc = (const uintptr_t *)(a - UC_STACK);
  if (uc[0] > UC_FLAGS_KNOWN || uc[1] != 0)
    return false;
  const uintptr_t *gregs = (const uintptr_t *)(a - UC_STACK + UC_MCONTEXT);
  if ((gregs[REG_CSGSFS] & 0xffff) != USER_CS)
    return false;
  const struct mapping *restorer = mapping_of(*(const uintptr_t *)(a - RESTORER));
  if (!restorer || !restorer->exec)
    return false;
  *base = ss_sp;
  *top = ss_sp + ss_size;
  *isp = gregs[REG_RSP];
  return true;
}

/* For a thread whose sp lies in sm, not on its own stack: the top of the
 * alternate stack it runs on and the stack pointer its first handler there
 * interrupted; false if no signal frame is found. */
static bool interrupted_sp(uintptr_t sp, const struct mapping *sm,
                           uintptr_t *alt_top, uintptr_t *isp) {
  uintptr_t lo = sm->start, hi = sm->end;
  if (hi - sp > FRAME_SEARCH_MAX)
    hi = sp + FRAME_SEARCH_MAX;
  uintptr_t at = (sp + 7) & ~(uintptr_t)7;
  for (int frames = 0; frames < 64; frames++) {
    uintptr_t base = 0, top = 0, next = 0;
    bool found = false;
    if (at < lo + RESTORER)
      at = lo + RESTORER;
    for (; at + GREGS_END <= hi; at += 8)
      if ((found = signal_frame_at(at, sp, lo, sm->end, &base, &top, &next)))
        break;
    if (!found)
      return false;
    *alt_top = top;
    if (next < base || next >= top) { /* left the alternate stack: done */
      *isp = next;
      return true;
    }
    at = next > at ? (next + 7) & ~(uintptr_t)7 : at + 8; /* nested */
  }
  return false;
}

/* The mapping a thread's own stack is in: [stack] for the main thread,
 * else tp's (glibc puts the descriptor at the top of the stack block). */
static bool on_own_stack(const struct md_thread *t, const struct mapping *sm,
                         const struct mapping *tm, int pid) {
  if (sm->main_stack)
    return true;
  if (t->tid == pid)
    return false;
  return !tm || sm == tm;
}

/* Stack from the stack pointer (red zone included) to the end of its
 * mapping; static TLS and the thread descriptor around the thread pointer.
 * x86-64 glibc: the modules' static TLS blocks lie below tp (tls_below
 * covers them all), the descriptor (struct pthread: the dtv pointer, the
 * pthread_setspecific values) at and above tp. ld.so's static TLS size
 * counts the descriptor, so what remains of that size above tls_below
 * covers it; clipped to tp's mapping, whose end it is for a thread glibc
 * made (descriptor and TLS sit at the top of its stack block; the stack
 * then ends where the TLS begins). A thread on its alternate signal stack:
 * that stack from sp to its top, and its own from the interrupted sp. */
static void thread_roots(const struct visitor *v, const struct md_thread *t,
                         int pid) {
  uintptr_t sp = t->sp;
  size_t red_zone = t->red_zone;
  const struct mapping *sm = mapping_of(sp);
  const struct mapping *tm = t->tp ? mapping_of(t->tp) : NULL;
  uintptr_t tls_begin = 0, tls_end = 0;
  if (tm) {
    size_t above = tls_static_size - tls_below;
    tls_begin = t->tp - tm->start > tls_below ? t->tp - tls_below : tm->start;
    tls_end = tm->end - t->tp > above ? t->tp + above : tm->end;
  }
  uintptr_t alt_top, isp;
  if (sm && sm->readable && !on_own_stack(t, sm, tm, pid) &&
      interrupted_sp(sp, sm, &alt_top, &isp)) {
    uintptr_t b = sp - sm->start > red_zone ? sp - red_zone : sm->start;
    emit(v, b, alt_top, "signal stack", t->tid);
    sp = isp;
    red_zone = MD_ARCH_RED_ZONE; /* the interrupted code may use it */
    sm = mapping_of(sp);
  }
  if (sm) {
    uintptr_t b = sp - sm->start > red_zone ? sp - red_zone : sm->start;
    uintptr_t e = sm->end;
    if (tm == sm && t->tp > sp)
      e = tls_begin > b ? tls_begin : b;
    emit(v, b, e, "stack", t->tid);
  }
  if (t->nregs) {
    struct md_region regs = {(uintptr_t)t->regs,
                             (uintptr_t)(t->regs + t->nregs), "registers",
                             t->tid};
    v->visit(&regs, v->arg);
  }
  if (tm)
    emit(v, tls_begin, tls_end, "tls", t->tid);
}

/* Threads that have exited but are not yet joined: glibc keeps each one's
 * descriptor, holding its return value, on its list of stacks in use until
 * the join. The kernel cleared its tid when it exited. Read with every
 * thread stopped; a list caught mid-change is left at the first link that
 * does not look like a descriptor. */
static void unjoined_roots(const struct visitor *v, const uint32_t *head_desc) {
  if (!_rtld_global || !head_desc || !_thread_db_pthread_list ||
      !_thread_db_pthread_tid || !&_thread_db_sizeof_pthread)
    return;
  size_t list_off = _thread_db_pthread_list[2];
  size_t tid_off = _thread_db_pthread_tid[2];
  size_t size = _thread_db_sizeof_pthread;
  const uintptr_t *head = (const uintptr_t *)(_rtld_global + head_desc[2]);
  if (!readable((uintptr_t)head, 16) || size < tid_off + 4 || size > 65536)
    return;
  uintptr_t link = head[0];
  for (int n = 0; link != (uintptr_t)head && n < MAX_DESCRIPTORS; n++) {
    uintptr_t pd = link - list_off;
    if (link < list_off || !readable(pd, size) ||
        *(const uintptr_t *)pd != pd) /* tcbhead_t.tcb points to itself */
      return;
    if (*(const int *)(pd + tid_off) == 0)
      emit(v, pd, pd + size, "descriptor", 0);
    link = *(const uintptr_t *)link;
  }
}

/* A module's segment, only its pages that may hold data (as a large
 * block's): a page of .bss or .data the program never wrote holds no
 * pointer to a block (the file's bytes were written before any block
 * existed), and reading it is not free: a fault each, and, on a kernel
 * that maps no shared zero page for reads, a page of memory each (a
 * program's 64 MiB static array, never used, resident at exit). */
struct segment_visit {
  const struct visitor *v;
  const char *kind;
};

static void visit_present(uintptr_t b, uintptr_t e, void *arg) {
  const struct segment_visit *sv = arg;
  struct md_region r = {b, e, sv->kind, 0};
  sv->v->visit(&r, sv->v->arg);
}

void md_world_roots(void (*visit)(const struct md_region *r, void *arg),
                    void *arg) {
  if (!md_world_is_stopped())
    return;
  struct visitor v = {visit, arg};
  for (size_t i = 0; i < segment_count; i++) {
    struct segment_visit sv = {&v, segments[i].loader ? "loader" : "module"};
    md_roots_each_present(segments[i].begin, segments[i].end, visit_present,
                          &sv);
  }
  struct md_thread t;
  int pid = md_getpid();
  for (size_t i = 0; md_world_thread(i, &t); i++)
    thread_roots(&v, &t, pid);
  unjoined_roots(&v, _thread_db_rtld_global__dl_stack_used);
  unjoined_roots(&v, _thread_db_rtld_global__dl_stack_user);
  for (size_t i = 0; i < root_count; i++) {
    uintptr_t b = ~roots[i].inv_begin;
    emit(&v, b, b + roots[i].size, "registered", 0);
  }
}

/* ---- registered roots ---------------------------------------------------- */

void md_world_register_root(const void *begin, size_t size) {
  md_pid_lock(&roots_lock);
  bool full = root_count == MAX_ROOTS;
  if (!full)
    roots[root_count++] = (__typeof__(roots[0])){~(uintptr_t)begin, size};
  md_pid_unlock(&roots_lock);
  if (full)
    md_log("mdebug: mdebug_register_root(%p, %zu): too many root regions "
           "(at most %d); this one is ignored",
           begin, size, MAX_ROOTS);
}

void md_world_unregister_root(const void *begin, size_t size) {
  md_pid_lock(&roots_lock);
  size_t i = 0;
  while (i < root_count &&
         (roots[i].inv_begin != ~(uintptr_t)begin || roots[i].size != size))
    i++;
  bool found = i < root_count;
  if (found) {
    roots[i] = roots[--root_count];
    roots[root_count].inv_begin = roots[root_count].size = 0;
  }
  md_pid_unlock(&roots_lock);
  if (!found)
    md_log("mdebug: mdebug_unregister_root(%p, %zu): no such region was "
           "registered",
           begin, size);
}
