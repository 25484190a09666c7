/* internal.h - the runtime's one internal header: every cross-file function,
 * grouped by the file that defines it, plus the shared types.
 *
 * Nothing declared here may allocate through the user-visible malloc; every
 * function is safe to call from inside an allocation entry point.
 */
#ifndef MDEBUG_INTERNAL_H
#define MDEBUG_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mdebug/site.h"

/* Every runtime function goes into one section, so the unwinder can tell
 * the runtime's frames from the program's by address (__start_mdebug_text /
 * __stop_mdebug_text, unwind.c). */
#pragma clang section text = "mdebug_text"

#define MD_HIDDEN __attribute__((visibility("hidden")))
#define MD_EXPORT __attribute__((visibility("default")))
#define MD_LIKELY(x) __builtin_expect(!!(x), 1)
#define MD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MD_NOINLINE __attribute__((noinline))
#define MD_ALWAYS_INLINE inline __attribute__((always_inline))

#define MD_SIZE_ALL ((size_t)-1)
#define MD_MIN_ALIGN 16 /* glibc's MALLOC_ALIGNMENT on LP64 */

/* The call kinds, one per entry point, in abi.def order (the pass numbers
 * site->op the same way). */
enum md_op {
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS) MD_OP_##NAME,
#include "mdebug/abi.def"
  MD_OP_COUNT
};

/* Allocation families: a block must be released by its own family. */
enum md_family {
  MD_FAMILY_MALLOC = 1, /* malloc, calloc, realloc, memalign, strdup, ... */
  MD_FAMILY_NEW = 2,    /* operator new */
  MD_FAMILY_NEW_ARRAY = 3, /* operator new[] */
  MD_FAMILY_MAP = 4,       /* mmap, mremap: mappings, never heap blocks */
  MD_FAMILY_THREAD = 5,    /* pthread_create: thread stacks */
  MD_FAMILY_NEW_ALIGNED = 6,       /* operator new(size_t, align_val_t) */
  MD_FAMILY_NEW_ARRAY_ALIGNED = 7, /* operator new[](size_t, align_val_t) */
};

/* The family of the blocks call kind `op` allocates, or may release
 * (ops.def). A switch, so that a constant op folds to a constant. */
static inline enum md_family md_op_family(unsigned op) {
  switch (op) {
#define MD_OP(NAME, DISPLAY, FAMILY, RELEASE, RECORD)                          \
  case MD_OP_##NAME:                                                           \
    return MD_FAMILY_##FAMILY;
#include "ops.def"
  }
  return MD_FAMILY_MALLOC;
}

/* The array families (new[], aligned new[]): their blocks may start with
 * an array cookie. */
static inline bool md_family_is_array(enum md_family f) {
  return f == MD_FAMILY_NEW_ARRAY || f == MD_FAMILY_NEW_ARRAY_ALIGNED;
}

/* An entry point's parameters followed by the site (abi.def's prototypes). */
#define MD_WITH_SITE(...) (__VA_ARGS__, const struct mdebug_site *site)

/* Where a call came from: a site descriptor (instrumented code) or a return
 * address (code that was not instrumented), told apart by the top bit, which
 * no user-space address on LP64 Linux has. An inert copy of the runtime
 * passes a call of a standard symbol on to the active copy's __mdebug_*
 * entry point with md_origin_pc(caller) as the site (copies.c). */
typedef uintptr_t md_origin_t;
#define MD_ORIGIN_PC_BIT ((uintptr_t)1 << 63)
static inline md_origin_t md_origin_site(const struct mdebug_site *site) {
  return (md_origin_t)site;
}
static inline md_origin_t md_origin_pc(const void *pc) {
  return (md_origin_t)pc | MD_ORIGIN_PC_BIT;
}
static inline bool md_origin_is_pc(md_origin_t o) {
  return (o & MD_ORIGIN_PC_BIT) != 0;
}

/* ---- options.c ---------------------------------------------------------- */
#define MD_PATH_MAX 256
struct md_options {
#define MD_OPTION(NAME, KIND, BARE, MIN, MAX, HELP) MD_FIELD_##KIND(NAME)
#define MD_ALIAS(NAME, FIRST, SECOND, HELP)
#define MD_SYNONYM(NAME, TARGET)
#define MD_FIELD_FLAG(NAME) size_t NAME;
#define MD_FIELD_SIZE(NAME) size_t NAME;
#define MD_FIELD_NUMBER(NAME) size_t NAME;
#define MD_FIELD_PATH(NAME) char NAME[MD_PATH_MAX];
#define MD_FIELD_PATTERN(NAME) char NAME[MD_PATH_MAX];
#include "options.def"
};
extern struct md_options md_opt MD_HIDDEN;
/* Parses `text` over *opts. On error writes one line naming the option and
 * the rule into err and returns false; *opts is then unspecified. */
bool md_options_parse(struct md_options *opts, const char *text, char *err,
                      size_t err_size) MD_HIDDEN;
void md_options_set_defaults(struct md_options *opts) MD_HIDDEN;
/* Derived settings (free_track implies fill_on_free, guard rounding). */
void md_options_finish(struct md_options *opts) MD_HIDDEN;
/* Reads built-in defaults, the __mdebug_default_options() hook and
 * MDEBUG_OPTIONS into md_opt, reporting bad strings. */
void md_options_init(void) MD_HIDDEN;
void md_options_print_help(void) MD_HIDDEN;
void md_options_print_active(void) MD_HIDDEN;

/* ---- print.c: formatting into caller buffers, never allocates ----------- */
/* printf subset: %% %c %s %d %i %u %x %p with l/ll/z, width, '0' and '-'. */
size_t md_vformat(char *buf, size_t size, const char *fmt, va_list ap) MD_HIDDEN;
size_t md_format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4))) MD_HIDDEN;
/* Copies s[0..n) into buf with control bytes, DEL and '\\' escaped (\n, \t,
 * \r, \xNN, \\), so text from outside (option strings, file lines, program
 * names) cannot drive the terminal. Always NUL-terminated; returns the length
 * written (truncated to the buffer). */
size_t md_escape(char *buf, size_t size, const char *s, size_t n) MD_HIDDEN;
/* md_escape leaving '\\' as it is: for a line whose parts were escaped
 * already (report.c's net under every report line). */
size_t md_escape_controls(char *buf, size_t size, const char *s, size_t n)
    MD_HIDDEN;
/* md_escape of a C string that also escapes '"', '{' and '}' (\xNN): a
 * quoted field of a heap dump's bt_info. */
size_t md_escape_field(char *buf, size_t size, const char *s) MD_HIDDEN;
/* md_escape of a C string into buf; returns buf (NULL for NULL), for use as
 * a %s argument. */
const char *md_escaped(char *buf, size_t size, const char *s) MD_HIDDEN;

/* ---- outfile.c: the files mdebug writes, never allocates ---------------- */
/* Opens path for writing as every file mdebug writes is opened: created
 * 0600 if missing; never through a symbolic link; never a FIFO, device,
 * socket or directory (and never blocking in open); never a file owned by
 * another uid than geteuid() or with more than one link; truncated only
 * after those checks, unless append (O_APPEND). Nothing at all in a
 * setuid/setgid process (md_secure()). Returns a blocking O_CLOEXEC fd, or
 * -1 with errno set and, when the file was refused rather than the system
 * failing, why = "refusing to write PATH: REASON" (else why is empty). */
int md_file_open(const char *path, bool append, char *why, size_t why_size)
    MD_HIDDEN;
struct md_out {
  int fd;
  bool failed;
  size_t used;
  char refusal[MD_PATH_MAX * 2 + 128]; /* md_file_open's why */
  char buf[16384];
};
/* Creates or truncates path (md_file_open); false with errno on failure,
 * and o->refusal non-empty if the file was refused. */
bool md_out_open(struct md_out *o, const char *path) MD_HIDDEN;
void md_out_write(struct md_out *o, const char *data, size_t len) MD_HIDDEN;
void md_out_printf(struct md_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3))) MD_HIDDEN;
bool md_out_copy_file(struct md_out *o, const char *path) MD_HIDDEN;
bool md_out_close(struct md_out *o) MD_HIDDEN;

/* ---- log.c: the sink every line goes through, and md_log ----------------- */
/* Unnumbered notes (verbose, option errors, the heap's warnings): one line,
 * no error counted; dropped when this thread is already writing. Any layer
 * may call it: it calls nothing above print.c and outfile.c. */
void md_log(const char *fmt, ...) __attribute__((format(printf, 1, 2))) MD_HIDDEN;
/* The sink's lock and this thread's "writing" flag, for report.c: enter
 * returns false (and takes nothing) when this thread is already writing;
 * enter_fatal never waits long (a dying thread may hold the lock itself):
 * -1 when already writing, else whether the lock was taken, which leave
 * must be told. */
bool md_sink_enter(void) MD_HIDDEN;
int md_sink_enter_fatal(void) MD_HIDDEN;
void md_sink_leave(bool locked) MD_HIDDEN;
/* The lock alone (counters kept under it), and the dying thread's try. */
void md_sink_lock(void) MD_HIDDEN;
void md_sink_unlock(void) MD_HIDDEN;
bool md_sink_lock_dying(void) MD_HIDDEN;
/* One line (no newline) to log_path's file or stderr; control bytes are
 * escaped. Inside enter/leave. */
void md_sink_write(const char *line, size_t n) MD_HIDDEN;
void md_log_atfork_prepare(void) MD_HIDDEN;
void md_log_atfork_parent(void) MD_HIDDEN;
void md_log_atfork_child(void) MD_HIDDEN;
/* Writes all of buf to fd (again on EINTR); 0, or the errno that stopped it. */
int md_write_fully(int fd, const char *buf, size_t len) MD_HIDDEN;
/* fd moved out of the program's way: the lowest free number at or above half
 * the soft RLIMIT_NOFILE (at most 1024), close-on-exec; fd if that fails. */
int md_fd_move_high(int fd) MD_HIDDEN;

/* ---- sort.c ------------------------------------------------------------- */
/* Heap sort of n records of `size` bytes; before(a, b): a goes first. */
void md_sort(void *base, size_t n, size_t size,
             bool (*before)(const void *a, const void *b)) MD_HIDDEN;

/* ---- site.c: naming where a call came from ------------------------------ */
/* "file:line:col (function)" or, for a return address, its call named as
 * a frame is (md_pc_describe of the return address - 1). */
size_t md_origin_describe(char *buf, size_t size, md_origin_t origin) MD_HIDDEN;
/* The one frame style: "pc 0xADDR in FUNCTION FILE:LINE:COL (MODULE)",
 * ADDR the address in the module's file; without a source line "in
 * FUNCTION+0xOFF", without a function neither; "pc 0x... <unknown>" outside
 * every module. strip_path_prefix applies to FILE and MODULE, as in the
 * sanitizers. pc is looked up as is (callers pass a return address - 1). */
size_t md_pc_describe(char *buf, size_t size, uintptr_t pc) MD_HIDDEN;
/* "file:line:col (function)" of a source location (line and column 0 when
 * unknown), with strip_path_prefix applied. */
size_t md_source_describe(char *buf, size_t size, const char *file,
                          const char *function, uint32_t line,
                          uint32_t column) MD_HIDDEN;
/* What ops.def says of call kind `op`: its name in reports ("operator
 * new[]"), whether it releases a block (free, every operator delete), and
 * whether its entry point records it for record_allocs as a whole (calloc,
 * realloc), so the allocator must not record its steps. */
const char *md_op_name(unsigned op) MD_HIDDEN;
bool md_op_is_release(unsigned op) MD_HIDDEN;
bool md_op_records_itself(unsigned op) MD_HIDDEN;
/* True when `origin` is code in libc, libstdc++, the loader or another
 * system runtime whose long-lived blocks are not the program's leaks. */
bool md_origin_is_system(md_origin_t origin) MD_HIDDEN;
/* True when `origin` is code in the dynamic loader, which keeps blocks (the
 * dtv of exited threads whose stacks it caches) where no root reaches. */
bool md_origin_is_loader(md_origin_t origin) MD_HIDDEN;
/* The names a pattern (leak: suppressions, page_guard_site) can match:
 * function and file (NULL if unknown) and the path of the module holding
 * the code (empty if unknown). */
struct md_origin_names {
  const char *function, *file;
  char module[512];
};
void md_origin_names(md_origin_t origin, struct md_origin_names *out)
    MD_HIDDEN;

/* ---- origin.c: 32-bit ids for origins (block metadata keeps ids) -------- */
#define MD_ORIGIN_MAX ((size_t)1 << 22) /* ids are below this */
struct md_origin_slot {
  md_origin_t key; /* 0: empty */
  uint64_t id;
};
struct md_origin_index {
  size_t mask;
  struct md_origin_slot slots[];
};
extern struct md_origin_index *md_origin_index MD_HIDDEN;
void md_origin_init(void) MD_HIDDEN;
uint32_t md_origin_id_slow(md_origin_t origin) MD_HIDDEN;
static inline size_t md_origin_hash(md_origin_t o) {
  return (size_t)((o * 0x9e3779b97f4a7c15ull) >> 32);
}
/* The id of an origin (0 for 0, or when no more ids are left). A site
 * descriptor carries its own once it has one (origin_id, site.h): one load,
 * no hash; a return address is looked up in the index. */
static inline uint32_t md_origin_id(md_origin_t o) {
  if (MD_LIKELY((intptr_t)o > 0)) { /* a site: not 0, not a return address */
    uint32_t id = __atomic_load_n(
        &((const struct mdebug_site *)o)->origin_id, __ATOMIC_ACQUIRE);
    if (MD_LIKELY(id))
      return id;
    return md_origin_id_slow(o);
  }
  const struct md_origin_index *x =
      __atomic_load_n(&md_origin_index, __ATOMIC_ACQUIRE);
  const struct md_origin_slot *s = &x->slots[md_origin_hash(o) & x->mask];
  if (MD_LIKELY(__atomic_load_n(&s->key, __ATOMIC_ACQUIRE) == o && o))
    return (uint32_t)s->id;
  return md_origin_id_slow(o);
}
md_origin_t md_origin_of(uint32_t id) MD_HIDDEN; /* 0 for 0 */
size_t md_origin_count(void) MD_HIDDEN;
void md_origin_atfork_prepare(void) MD_HIDDEN;
void md_origin_atfork_parent(void) MD_HIDDEN;
void md_origin_atfork_child(void) MD_HIDDEN;

/* ---- unwind.c, depot.c, symbolize.c, backtrace.c: stacks --------------- */
/* The calling thread's call sites (return address - 1), innermost first,
 * without any frame of the runtime (this copy's or an announced one's);
 * at most max. */
size_t md_unwind(uintptr_t *pcs, size_t max) MD_HIDDEN;
/* A signal's interrupted context: pc (the faulting instruction, as is,
 * unless it is the runtime's own), then the callers from its frame pointer
 * fp, inside the stack mapping holding its stack pointer sp (or fp, when a
 * stack overflow left sp outside it), without the runtime's frames. */
size_t md_unwind_from(uintptr_t pc, uintptr_t fp, uintptr_t sp, uintptr_t *pcs,
                      size_t max) MD_HIDDEN;
/* Whether pc is in the runtime's code (this copy's or an announced one's). */
bool md_unwind_in_runtime(uintptr_t pc) MD_HIDDEN;
/* (Re)builds the table of executable segments frames are checked against:
 * at start-up and whenever an instrumented module is loaded. */
void md_unwind_refresh_code(void) MD_HIDDEN;
/* Frames in [begin, end), another (inert) copy's code, are left out of
 * stacks like this copy's own. */
void md_unwind_add_runtime_code(uintptr_t begin, uintptr_t end) MD_HIDDEN;
void md_depot_init(void) MD_HIDDEN;
/* Stack ids: 0 = none recorded; MD_STACK_EMPTY = recorded, but no frame
 * (or left out by the size limits), as malloc debug's empty index. */
#define MD_STACK_EMPTY 1u
/* The id of this stack (stored once); 0 if the depot is full. */
uint32_t md_depot_put(const uintptr_t *pcs, size_t n) MD_HIDDEN;
/* The frames of id (NULL and *n = 0 for id 0). */
const uintptr_t *md_depot_get(uint32_t id, size_t *n) MD_HIDDEN;
struct md_depot_stats {
  size_t stacks, dropped, bytes;
};
void md_depot_stats(struct md_depot_stats *st) MD_HIDDEN;
struct md_symbol {
  uintptr_t pc, rel_pc;  /* rel_pc: the address in the module's file, as
                            addr2line takes it (pc - load bias) */
  const char *module;    /* path; NULL if no module holds pc */
  const char *function;  /* NULL if unknown */
  size_t offset;         /* pc - function start */
  const char *file;      /* source file (md_symbolize_source); NULL */
  unsigned line, column;
};
/* Names a code address (a frame from md_unwind); false (only pc set) if no
 * module holds it. Symbol-table names, not demangled: cheap, no helper. */
bool md_symbolize(uintptr_t pc, struct md_symbol *out) MD_HIDDEN;
/* md_symbolize, then (symbolize option) the demangled function and source
 * line from the llvm-symbolizer helper when it has them. Report time only. */
bool md_symbolize_source(uintptr_t pc, struct md_symbol *out) MD_HIDDEN;
void md_symbolize_init(void) MD_HIDDEN; /* after the options */
void md_symbolize_atfork_child(void) MD_HIDDEN;
void md_backtrace_init(void) MD_HIDDEN;
/* Whether blocks carry stack ids (the header's stacks extension). */
bool md_backtrace_enabled(void) MD_HIDDEN;
size_t md_backtrace_frames(void) MD_HIDDEN; /* allocation frames, 0 if off */
/* SIGRTMAX-19: turns allocation stacks on or off; returns the new state. */
bool md_backtrace_toggle(void) MD_HIDDEN;
/* The stack of an allocation of `size` (0 when not recorded). */
uint32_t md_backtrace_alloc(size_t size) MD_HIDDEN;
uint32_t md_backtrace_free(void) MD_HIDDEN; /* free_track's free stack */
/* One frame line, malloc debug's shape, into buf. */
size_t md_frame_format(char *buf, size_t size, size_t index, uintptr_t pc)
    MD_HIDDEN;
/* Inside a report: `title` and the frames of stack id (nothing for 0). */
void md_report_stack(const char *title, uint32_t id) MD_HIDDEN;
/* Inside a report: the block's allocation stack and, once freed, its free
 * stack (whichever were recorded). */
struct md_block;
void md_report_block_stacks(const struct md_block *b) MD_HIDDEN;
/* Inside a report, with backtrace on: "Backtrace at time of failure:". */
void md_report_current_stack(void) MD_HIDDEN;

/* ---- report.c: the only writer of user-visible text --------------------- */
enum md_error {
#define MD_ERROR(NAME, TITLE) MD_ERR_##NAME,
#include "errors.def"
  MD_ERR_COUNT
};
/* A report is begin, any number of lines, end. begin returns false when the
 * report must be dropped (re-entry from the same thread); then call nothing. */
bool md_report_begin(enum md_error kind) MD_HIDDEN;
void md_report_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)))
MD_HIDDEN;
void md_report_end(void) MD_HIDDEN;
/* Evidence: one "  allocation[i] = 0x.. (expected 0x..)" line per byte of
 * bytes[0..n) that differs from `expected` (i counted from index0), at most
 * 64 lines then a count. Returns how many differ. */
size_t md_report_evidence(const unsigned char *bytes, size_t n, long index0,
                          unsigned char expected) MD_HIDDEN;
/* "  <what> by <op> at <origin>", the line naming a site. */
void md_report_origin(const char *what, unsigned op, md_origin_t origin)
    MD_HIDDEN;
/* "  <what> at <file:line:col (function)>", the line naming a source
 * location that is no allocation site (a checked access). */
void md_report_source(const char *what, const char *file,
                      const char *function, uint32_t line, uint32_t column)
    MD_HIDDEN;
/* Leaks found at exit (counted for the summary and the exit status). */
void md_report_add_leaks(size_t blocks, size_t bytes) MD_HIDDEN;
/* Leaked mappings (mmap.c), counted apart: "... in 3 blocks and 1 mapping". */
void md_report_add_leaked_mappings(size_t maps, size_t bytes) MD_HIDDEN;
/* Prints the SUMMARY line if anything was reported; returns the exit status
 * the run should end with, or -1 to keep the program's. */
int md_report_summary(void) MD_HIDDEN;
/* From the handler of a fatal signal (crash.c): the SUMMARY line of what was
 * reported so far, then the signal ("SIGSEGV", "segmentation fault"). Safe
 * in a signal handler; never waits long for the report lock, which the
 * dying thread itself may hold. */
void md_report_fatal_summary(const char *signal, const char *what) MD_HIDDEN;
/* md_report_begin for the handler of a fatal signal (crash.c): never waits
 * long for the lock; false when the dying thread was inside a report. Its
 * md_report_end never aborts (abort_on_error): the signal ends the run. */
bool md_report_begin_fatal(enum md_error kind) MD_HIDDEN;

/* ---- alloc.c: the checked allocator every entry point goes through ------ */
void *md_allocate(size_t size, size_t align, enum md_family family, bool zero,
                  unsigned op, md_origin_t origin) MD_HIDDEN;
void md_deallocate(void *ptr, enum md_family family, unsigned op,
                   md_origin_t origin) MD_HIDDEN;
void *md_reallocate(void *ptr, size_t size, unsigned op, md_origin_t origin)
    MD_HIDDEN;
size_t md_usable_size(void *ptr, unsigned op, md_origin_t origin) MD_HIDDEN;
/* posix_memalign / aligned_alloc / memalign / valloc / pvalloc rules. */
int md_posix_memalign(void **out, size_t align, size_t size, unsigned op,
                      md_origin_t origin) MD_HIDDEN;
void *md_memalign(size_t align, size_t size, unsigned op, md_origin_t origin)
    MD_HIDDEN;

static inline bool md_is_power_of_two(size_t x) { return x && !(x & (x - 1)); }

/* ---- refuse.c: requests no block can answer (reported unless
 * allocator_may_return_null); cold, out of line ------------------------- */
/* A size over max_allocation_size (or an alignment over it): NULL, ENOMEM. */
void *md_refuse_size(size_t size, size_t align, unsigned op,
                     md_origin_t origin) MD_HIDDEN __attribute__((cold));
/* calloc's or reallocarray's n * size overflows: NULL, ENOMEM. */
void *md_refuse_product(size_t n, size_t size, unsigned op,
                        md_origin_t origin) MD_HIDDEN __attribute__((cold));
/* pvalloc's size rounded up to a page overflows: NULL, ENOMEM. */
void *md_refuse_pvalloc(size_t size, size_t page, unsigned op,
                        md_origin_t origin) MD_HIDDEN __attribute__((cold));
/* An alignment the call does not accept: returns EINVAL; errno EINVAL but
 * for posix_memalign (kept). */
int md_refuse_alignment(size_t align, size_t size, unsigned op,
                        md_origin_t origin) MD_HIDDEN __attribute__((cold));

/* ---- guard.c ------------------------------------------------------------ */
extern bool md_guards_on MD_HIDDEN; /* front_guard or rear_guard (set at init) */
void md_guard_init(void) MD_HIDDEN;
/* Writes a new block's guards; `before` is its metadata bits before it was
 * handed out (a slot whose pages were released needs its guard areas). */
void md_guard_write(const struct md_block *b, uint32_t before) MD_HIDDEN;
/* Checks both guards; reports each corrupted one. Returns true if intact. */
bool md_guard_check(const struct md_block *b, unsigned op, md_origin_t origin)
    MD_HIDDEN;
/* At exit: checks the guards of every block still allocated. */
void md_guard_check_live(void) MD_HIDDEN;

/* ---- fill.c ------------------------------------------------------------- */
void md_fill_on_alloc(const struct md_block *b) MD_HIDDEN; /* fill_on_alloc */
void md_fill_on_free(const struct md_block *b) MD_HIDDEN;
/* Checks that a quarantined block still holds its free fill; reports
 * USED AFTER FREE with the changed bytes. */
bool md_fill_check_freed(const struct md_block *b, bool at_exit) MD_HIDDEN;

/* ---- quarantine.c: the free_track FIFO, one per thread ------------------- */
void md_quarantine_init(void) MD_HIDDEN;
/* Takes a freed block (state QUARANTINED) and fills it (fill_on_free); may
 * check an older one and give it back to the heap. */
void md_quarantine_push(const struct md_block *b) MD_HIDDEN;
/* Checks everything still held (at exit). */
void md_quarantine_drain(void) MD_HIDDEN;
void md_quarantine_atfork_child(void) MD_HIDDEN;

/* ---- leak.c ------------------------------------------------------------- */
/* At exit: reports leaks (leak_check: the unreachable ones; leak_track:
 * every block still allocated). */
/* At init: the address space the leak checks keep for themselves. */
void md_leak_init(void) MD_HIDDEN;
/* The check's lock, in a forked child (no check runs there). */
void md_leak_atfork_child(void) MD_HIDDEN;
/* The address space that reserve holds now (0 once given back). */
size_t md_leak_reserve_bytes(void) MD_HIDDEN;
void md_leak_report_at_exit(void) MD_HIDDEN;
/* mdebug_check_leaks(): the unreachable blocks now; returns how many. */
size_t md_leak_check_now(void) MD_HIDDEN;
/* mdebug_ignore(): the block is kept on purpose. */
void md_leak_ignore(const void *p) MD_HIDDEN;

/* ---- scan.c: reachability over the heap, with the world stopped --------- */
/* The scan and its contract with the heap (scan_heap.c). */
#include "scan_contract.h"

/* ---- exit.c: the runtime's exit() ---------------------------------------- */
/* The stack pointer at which this thread called exit() (the frames above it
 * are alive), or 0 if it did not (main returned). */
uintptr_t md_exit_live_sp(void) MD_HIDDEN;

/* ---- suppress.c: the suppressions file ---------------------------------- */
/* Reads the file the suppressions option names, once; a file that cannot be
 * used, and every line that is not leak:PATTERN, is reported with md_log. */
void md_suppress_load(void) MD_HIDDEN;
/* True when a leak:PATTERN line matches the function, source file or module
 * of origin. */
bool md_suppressed(md_origin_t origin) MD_HIDDEN;
/* Whether PATTERN (after "leak:") matches name: '*' any run, '^' and '$'
 * anchors, anywhere in name otherwise. */
bool md_suppress_match(const char *pattern, const char *name) MD_HIDDEN;
/* Whether pattern matches one of a site's names (md_origin_names). */
bool md_suppress_match_names(const char *pattern,
                             const struct md_origin_names *names) MD_HIDDEN;

/* ---- record.c: record_allocs -------------------------------------------- */
enum md_record_type {
  MD_REC_MALLOC, MD_REC_CALLOC, MD_REC_MEMALIGN, MD_REC_REALLOC, MD_REC_FREE,
  MD_REC_THREAD_DONE
};
extern bool md_recording MD_HIDDEN; /* record_allocs is on (set at init) */
void md_record_init(void) MD_HIDDEN;
uint64_t md_record_now(void) MD_HIDDEN; /* CLOCK_MONOTONIC, ns */
/* One call: arg is calloc's nmemb or memalign's alignment, old realloc's
 * old pointer. Never blocks; dropped once the buffer is full. */
void md_record(enum md_record_type type, uintptr_t ptr, uintptr_t old,
               size_t arg, size_t size, uint64_t start, uint64_t end) MD_HIDDEN;
/* Writes the records since the last write to record_allocs_file (at exit:
 * record_allocs_file.PID); without it, to /tmp/record_allocs.PID.txt (at
 * exit: /tmp/record_allocs.PID.exit.txt). */
void md_record_write(bool at_exit) MD_HIDDEN;
void md_record_atfork_child(void) MD_HIDDEN;

/* ---- stats.c: log_allocator_stats ---------------------------------------- */
void md_stats_log(void) MD_HIDDEN;

/* ---- heapdump.c: the live heap as malloc debug lists it ----------------- */
struct md_live_record {
  size_t size, num; /* num: blocks of this size and stack */
  uint32_t stack, frames; /* frames: the stack's length (for sorting) */
  uintptr_t ptr; /* the lowest block's address */
  uint32_t origin; /* unmerged records: the block's allocation origin id */
};
struct md_live_records {
  struct md_live_record *v;
  size_t n, bytes;
};
/* Every live block (only those with a stack id if asked), sorted as
 * malloc debug sorts, then by origin; merged by size and stack unless
 * `merge` is false (one record a block, num 1); false if out of memory. */
bool md_live_records_collect(struct md_live_records *r, bool only_with_stack,
                             bool merge) MD_HIDDEN;
void md_live_records_free(struct md_live_records *r) MD_HIDDEN;
/* Writes a v1.2 heap dump to path; 0, or -1 with errno. */
int md_heap_dump(const char *path) MD_HIDDEN;
/* backtrace_dump_prefix.PID.txt, or .PID.exit.txt at exit. */
void md_heap_dump_auto(bool at_exit) MD_HIDDEN;
void md_heapdump_atfork_child(void) MD_HIDDEN;

/* ---- stop_linux.c: stopping every other thread --------------------------- */
/* Stops every other thread of the process, calls fn(arg) while they are
 * stopped, then resumes them all. The caller must hold no lock a thread
 * could be waiting for in a way that keeps it from stopping; fn must not
 * take any lock a stopped thread might hold (no dladdr, no stdio, no
 * glibc malloc) and must not allocate. Returns false (fn not called) if
 * the threads could not be stopped (md_world_stop_failure says why). */
bool md_world_stop(void (*fn)(void *arg), void *arg) MD_HIDDEN;
/* Start-up (lifecycle.def): the /proc files a stop reads, and whether
 * ptrace may be used; in a forked child, the child's files. */
void md_stop_start(void) MD_HIDDEN;
void md_stop_atfork_child(void) MD_HIDDEN;
/* Why the last md_world_stop failed: one line, no newline. */
const char *md_world_stop_failure(void) MD_HIDDEN;
/* A stopped thread, as the roots see it. */
struct md_thread {
  int tid;
  uintptr_t sp, tp;      /* tp 0 when unknown */
  size_t red_zone;       /* bytes below sp that may be in use */
  size_t nregs;          /* words of regs (0: none known) */
  const uintptr_t *regs; /* registers that may hold pointers */
};
/* Only inside md_world_stop's fn, on its thread. */
bool md_world_is_stopped(void) MD_HIDDEN;
/* Only inside fn: the i-th thread (0: the caller, whose registers are the
 * callee-saved ones at its call of md_world_stop); false past the last. */
bool md_world_thread(size_t i, struct md_thread *t) MD_HIDDEN;
/* A spin lock holding its owner's pid (a forked child takes over a lock its
 * parent's thread held); waiters spin with signals open. */
void md_pid_lock(int *lock) MD_HIDDEN;
void md_pid_unlock(int *lock) MD_HIDDEN;

/* ---- roots_linux.c: the roots of a leak scan ----------------------------- */
/* A range of memory that may hold pointers to blocks. */
struct md_region {
  uintptr_t begin, end; /* [begin, end), 8-aligned begin not required */
  const char *kind; /* "module", "stack", "registers", "tls", "descriptor",
                       "registered" */
  int tid;          /* the thread, for stack/registers/tls; 0 otherwise */
};
/* Opens the /proc files a stop reads (at start-up, in a forked child). */
void md_roots_open_files(void) MD_HIDDEN;
/* Before the threads are stopped: the registered-roots lock; false (*why
 * set) on failure. Never takes the loader's lock. */
bool md_roots_prepare(const char **why) MD_HIDDEN;
/* While they are stopped: the address space and the modules in it; false
 * (*why set) on failure. */
bool md_roots_read_maps(const char **why) MD_HIDDEN;
/* Only inside md_world_stop's fn: calls fn for each readable part of
 * [begin, end) (by the maps read for the stop), contiguous parts merged. */
void md_roots_each_readable(uintptr_t begin, uintptr_t end,
                            void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                            void *arg) MD_HIDDEN;
/* Only inside md_world_stop's fn: as md_roots_each_readable, but only the
 * pages that may hold data (resident, or swapped out; see roots_linux.c):
 * a sparse block or mapping is not read whole. */
void md_roots_each_present(uintptr_t begin, uintptr_t end,
                           void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                           void *arg) MD_HIDDEN;
/* After they resume (only if md_roots_prepare succeeded). */
void md_roots_finish(void) MD_HIDDEN;
/* Only inside md_world_stop's fn: calls visit for every root region: the
 * writable segments of every loaded module, each thread's stack from its
 * stack pointer (the calling thread's too), each thread's saved registers,
 * each thread's static TLS and thread descriptor, the descriptors of
 * threads that exited but are not yet joined, and the regions the program
 * registered with mdebug_register_root(). Regions of the runtime's own
 * memory are not roots. */
void md_world_roots(void (*visit)(const struct md_region *r, void *arg),
                    void *arg) MD_HIDDEN;
/* mdebug_register_root / mdebug_unregister_root keep their list here. */
void md_world_register_root(const void *begin, size_t size) MD_HIDDEN;
void md_world_unregister_root(const void *begin, size_t size) MD_HIDDEN;

/* ---- signals.c: signal-triggered work, done by a service thread ---------- */
/* From the runtime's constructor (not from inside an allocation: it starts
 * a thread, which allocates). */
void md_signals_init(void) MD_HIDDEN;
void md_signals_atfork_child(void) MD_HIDDEN;

/* ---- access.c: checked heap accesses ------------------------------------- */
/* After md_heap_init: publishes the heap's geometry to instrumented code
 * (__mdebug_access), which checks nothing until then. */
void md_access_init(void) MD_HIDDEN;
void md_access_atfork_child(void) MD_HIDDEN;
void md_unwind_atfork_child(void) MD_HIDDEN; /* unwind.c */
/* Set once a thread took a cache of lookups (checked accesses run). */
extern bool md_access_used MD_HIDDEN;
struct md_block;
/* A new block's answer into this thread's cache (access.c). */
void md_access_keep_new(const struct md_block *b) MD_HIDDEN;
/* The checks behind the checked C library calls (libc_checks.c). `via`
 * names the function in reports: a line's position among checks.def's
 * MDEBUG_CHECKED, MDEBUG_CHECKED_VA and MDEBUG_VIA lines, plus one. */
enum {
  MD_VIA_NONE,
#define MD_VIA_ENUM(NAME, ...) MD_VIA_##NAME,
#define MDEBUG_CHECKED MD_VIA_ENUM
#define MDEBUG_CHECKED_VA MD_VIA_ENUM
#define MDEBUG_VIA MD_VIA_ENUM
#include "mdebug/checks.def"
#undef MD_VIA_ENUM
  MD_VIA_COUNT
};
struct mdebug_access_site;
#include "mdebug/access.h"
/* The last live block the checked calls of a thread without a cache of
 * lookups found (access.c: fine_uncached), its bounds complemented (the
 * leak scan reads thread-local storage), and whether it holds a. */
extern __thread struct mdebug_access_entry md_calls_memo
    __attribute__((tls_model("initial-exec"))) MD_HIDDEN;
static inline bool md_calls_memo_holds(uintptr_t a) {
  const struct mdebug_access_entry *e = &md_calls_memo;
  return e->word && ~e->start <= a && a <= ~e->end &&
         __atomic_load_n(e->word, __ATOMIC_ACQUIRE) == e->value;
}
/* [addr, addr + n) against the block it lies in; reports what lies
 * outside (info: MDEBUG_ACCESS_INFO). false when it does not lie inside
 * (reported now, or before at the same site). */
bool md_access_check(const void *addr, size_t n, uint64_t info,
                     const struct mdebug_access_site *site) MD_HIDDEN;
/* strnlen(s, max), reporting a string that runs off its block. */
size_t md_access_string_length(const char *s, size_t max, unsigned via,
                               const struct mdebug_access_site *site) MD_HIDDEN;

/* ---- crash.c: a summary when SIGSEGV, SIGBUS or abort() ends the run ---- */
/* From the active copy's constructor: handlers where the disposition is the
 * default, and the main thread's alternate signal stack. */
void md_crash_init(void) MD_HIDDEN;

/* ---- copies.c: one active runtime per process --------------------------- */
/* This copy of the runtime is the process's (the one the dynamic linker
 * binds malloc to) or inert; decided at its first call or constructor. */
enum { MD_COPY_UNDECIDED, MD_COPY_ACTIVE, MD_COPY_INERT };
extern int md_copy_role MD_HIDDEN;
bool md_copy_decide(void) MD_HIDDEN; /* true: this copy is active */
static inline bool md_copy_active(void) {
  return MD_LIKELY(__atomic_load_n(&md_copy_role, __ATOMIC_ACQUIRE) ==
                   MD_COPY_ACTIVE) ||
         md_copy_decide();
}
/* Where an inert copy passes each call on (set before it is seen inert):
 * site_NAME, the active copy's __mdebug_NAME, or NULL when no copy in the
 * process exports it; plain_NAME, the process's SYMBOL (libc's when no copy
 * is active), or NULL when the only one in reach is this copy's own. */
struct md_forward {
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  RET(*site_##NAME) MD_WITH_SITE PARAMS;                                       \
  RET(*plain_##NAME) PARAMS;
#include "mdebug/abi.def"
  void (*version_check)(void);
  size_t (*check_leaks)(void);
  int (*dump_heap)(const char *path);
  void (*ignore)(const void *ptr);
  void (*register_root)(const void *begin, size_t size);
  void (*unregister_root)(const void *begin, size_t size);
  void (*get_leak_info)(uint8_t **info, size_t *overall_size,
                        size_t *info_size, size_t *total_memory,
                        size_t *backtrace_size);
  void (*free_leak_info)(uint8_t *info);
  ssize_t (*backtrace)(void *pointer, uintptr_t *frames, size_t count);
  int (*snapshot)(const char *label);
  int (*track)(int on);
};
extern struct md_forward md_forward MD_HIDDEN;
/* An inert copy's constructor: shows the active copy where its code is (so
 * none of its frames appears in a stack), or says that no copy runs the
 * checks when none is active. */
void md_copy_announce(void) MD_HIDDEN;

/* ---- init.c ------------------------------------------------------------- */
extern int md_init_state MD_HIDDEN; /* 0 none, 1 running, 2 ready, 3 exiting */
void md_init_slow(void) MD_HIDDEN;
static inline void md_ensure_init(void) {
  if (MD_UNLIKELY(__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) != 2))
    md_init_slow();
}

/* ---- lifecycle.c: start-up and fork order (lifecycle.def) ---------------- */
/* Incremented in every forked child: blocks of an older epoch were inherited
 * from the parent and are not the child's leaks. */
extern unsigned md_fork_epoch MD_HIDDEN;
/* The one pthread_atfork, from md_init_slow once the heap is up. */
void md_lifecycle_register(void) MD_HIDDEN;
/* The start-up steps, from the active copy's constructor. */
void md_lifecycle_start(void) MD_HIDDEN;

/* ---- platform_linux.c: raw system calls, never through malloc ----------- */
void *md_mmap(size_t size) MD_HIDDEN;  /* zeroed, NULL on failure */
void md_munmap(void *p, size_t size) MD_HIDDEN;
void md_write_all(int fd, const char *buf, size_t len) MD_HIDDEN;
int md_getpid(void) MD_HIDDEN;
int md_gettid(void) MD_HIDDEN;
const char *md_getenv(const char *name) MD_HIDDEN;
/* At start-up, before the options: computes md_progname(). */
void md_platform_init(void) MD_HIDDEN;
/* argv[0]'s last component, escaped (md_escape): safe to print as is. */
const char *md_progname(void) MD_HIDDEN;
/* True in a setuid/setgid (AT_SECURE) process: MDEBUG_OPTIONS is ignored
 * and mdebug neither writes a file nor reads one an option names. */
bool md_secure(void) MD_HIDDEN;
void md_die(const char *why) __attribute__((noreturn)) MD_HIDDEN;
/* A /proc file or directory kept open ahead of time (the leak check opens
 * none while threads are stopped). The program may close it, or put another
 * file at its number, and a forked child must not use its parent's; so each
 * use checks it is still the same file of this process. Raw system calls
 * only: usable in the leak check's tracer task and in signal handlers. */
struct md_kept_fd {
  int fd; /* -1: none */
  int pid;
  dev_t dev;
  ino_t ino;
};
/* (Re)opens path (openat flags) into k; k->fd is -1 on failure. */
void md_kept_open(struct md_kept_fd *k, const char *path, int flags) MD_HIDDEN;
/* True if k->fd is still the file md_kept_open opened, in this process. */
bool md_kept_valid(const struct md_kept_fd *k) MD_HIDDEN;

/* ---- counters.c, sample.c, snapshot.c: the heap profiler ----------------
 * (track.h has the allocator's hooks and what snapshots read.) */
void md_counters_init(void) MD_HIDDEN;
void md_counters_atfork_prepare(void) MD_HIDDEN;
void md_counters_atfork_parent(void) MD_HIDDEN;
void md_counters_atfork_child(void) MD_HIDDEN;
void md_sample_init(void) MD_HIDDEN; /* at init, after the options */
bool md_sample_configured(void) MD_HIDDEN; /* a sampling option is set */
/* Tracking on or off (SIGRTMAX-12, mdebug_track()); returns the previous
 * state (the toggle: the new one). Blocks tracked already stay tracked. */
bool md_sample_set_tracking(bool on) MD_HIDDEN;
bool md_sample_toggle(void) MD_HIDDEN;
void md_sample_atfork_child(void) MD_HIDDEN;
void md_snapshot_init(void) MD_HIDDEN;  /* at init, after md_sample_init */
void md_snapshot_start(void) MD_HIDDEN; /* constructor: the profiler thread */
bool md_profiling(void) MD_HIDDEN;      /* a profile option is set */
/* Appends a snapshot labelled `label` to the profile (creating it); 0, or
 * -1 with errno. */
int md_snapshot_take(const char *label) MD_HIDDEN;
/* A double free alloc.c reported (second: the origin of the second free):
 * the profile's next write has its X record. */
void md_snapshot_double_free(const struct md_block *b, md_origin_t second)
    MD_HIDDEN;
/* At exit: the last snapshot ("exit") and the end record. */
void md_snapshot_at_exit(void) MD_HIDDEN;
void md_snapshot_atfork_prepare(void) MD_HIDDEN;
void md_snapshot_atfork_parent(void) MD_HIDDEN;
void md_snapshot_atfork_child(void) MD_HIDDEN; /* starts a thread */

/* ---- mmap.c: the program's mappings ------------------------------------- */
/* A mapping's flags, and its marks (as a block's: kept on purpose, or
 * already reported as leaked). */
enum { MD_MAP_SHARED = 1, MD_MAP_ANON = 2, MD_MAP_FIXED = 4,
       MD_MAP_GUESSED = 8 /* grown by mremap from an untracked mapping */ };
enum { MD_MAP_MARK_IGNORED = 1, MD_MAP_MARK_REPORTED = 2 };
struct md_mapping {
  uintptr_t begin, end; /* page aligned */
  md_origin_t origin;
  uint32_t stack; /* depot id, 0 if none */
  uint32_t group; /* the same for every piece one mmap became */
  uint16_t prot;  /* PROT_* */
  uint8_t flags, op, epoch, marks;
  const void *rec; /* the table's record (for md_mmap_scan_mark) */
};
/* Memory for the runtime's tables of mappings and threads: zeroed, from a
 * reservation of their own (never a hole the program may unmap later);
 * NULL without. */
void *md_tables_alloc(size_t bytes) MD_HIDDEN;
void md_tables_free(void *p, size_t bytes) MD_HIDDEN;
/* track_mmap (decided once, at the first call). */
bool md_mmap_tracking(void) MD_HIDDEN;
/* Copies up to cap mappings into out; returns how many there are. */
size_t md_mmap_collect(struct md_mapping *out, size_t cap) MD_HIDDEN;
/* mdebug_ignore() of an address in a mapping; false if none holds it. */
bool md_mmap_ignore(const void *p) MD_HIDDEN;
size_t md_mmap_dropped(void) MD_HIDDEN; /* records lost for want of memory */
/* Bytes of the heap's reservation the heap has made accessible. */
size_t md_mmap_heap_committed(void) MD_HIDDEN;
/* The leak scan: lock before the world stops, unlock after it resumes;
 * in between, collect (sorted by address) and mark without locking. */
void md_mmap_scan_lock(void) MD_HIDDEN;
void md_mmap_scan_unlock(void) MD_HIDDEN;
size_t md_mmap_scan_collect(struct md_mapping *out, size_t cap) MD_HIDDEN;
void md_mmap_scan_mark(const struct md_mapping *m, uint8_t mark) MD_HIDDEN;
void md_mmap_atfork_prepare(void) MD_HIDDEN;
void md_mmap_atfork_parent(void) MD_HIDDEN;
void md_mmap_atfork_child(void) MD_HIDDEN;
/* "rw- private anonymous" */
size_t md_mapping_describe(char *buf, size_t size, uint16_t prot,
                           uint8_t flags) MD_HIDDEN;

/* ---- threads.c: thread stacks ---------------------------------------------- */
struct md_thread_stack {
  uintptr_t lo, hi; /* the block glibc mapped: guard, stack, TLS */
  size_t guard;
  md_origin_t origin; /* the pthread_create */
  uint32_t stack;     /* its stack (depot id), 0 if none */
  bool exited;        /* exited, not joined yet */
};
size_t md_threads_collect(struct md_thread_stack *out, size_t cap) MD_HIDDEN;
/* Only while the world is stopped: the arguments of threads created but
 * not yet running (they live only in the runtime's records). */
void md_threads_roots(void (*visit)(const struct md_region *r, void *arg),
                      void *arg) MD_HIDDEN;
void md_threads_atfork_prepare(void) MD_HIDDEN;
void md_threads_atfork_parent(void) MD_HIDDEN;
void md_threads_atfork_child(void) MD_HIDDEN;

/* ---- threshold.c: vm_threshold, rss_threshold ------------------------------ */
/* The process grew by about `bytes` (a mapping, a commit, a stack); may
 * check the thresholds now (can_check: the caller holds no lock of the
 * runtime's) or have the watcher thread check them. Cheap: one atomic add
 * until a step of growth has gathered. */
void md_threshold_grew(size_t bytes, bool can_check) MD_HIDDEN;
/* The program unmapped memory: re-arms a threshold it fell below. */
void md_threshold_shrank(void) MD_HIDDEN;
/* From the runtime's constructor: the watcher, when a threshold is set. */
void md_threshold_init(void) MD_HIDDEN;
void md_threshold_atfork_child(void) MD_HIDDEN;

/* ---- usage.c: memory by category and by site ------------------------------- */
enum md_category { MD_CAT_BLOCKS, MD_CAT_MAPPINGS, MD_CAT_STACKS, MD_CATS };
struct md_usage_site {
  md_origin_t origin;
  size_t bytes, count;
  uint8_t category, op;
};
struct md_usage {
  size_t bytes[MD_CATS], count[MD_CATS];
  struct md_usage_site *sites; /* largest first */
  size_t n;
  size_t capacity;
  struct md_mapping *maps; /* every mapping, by address */
  size_t nmaps, maps_capacity;
  struct md_thread_stack *stacks;
  size_t nstacks, stacks_capacity;
};
/* Live blocks, mappings and thread stacks, totalled by category and by
 * (category, site); false without memory. */
bool md_usage_collect(struct md_usage *u) MD_HIDDEN;
void md_usage_free(struct md_usage *u) MD_HIDDEN;
/* "mdebug: stats: ..." lines: the totals, then the `top` largest sites. */
void md_usage_log(const struct md_usage *u, const char *prefix, size_t top)
    MD_HIDDEN;
/* The heap dump's extension section (docs/stacks-and-dumps.md). */
void md_usage_write_dump(struct md_out *o, const struct md_usage *u) MD_HIDDEN;

/* ---- profile.c: the heap profile file (docs/profile-format.md) --------- */
/* One open profile. Calls on one profile must not overlap (the caller
 * serialises them); each call hands its records to the kernel before it
 * returns, so a crash loses at most the call in flight. Record times are
 * CLOCK_MONOTONIC ns, written relative to the header's start_ns. */
struct md_profile {
  struct md_out out; /* created by md_out_open; written through out.fd */
  bool failed;       /* a write failed: later calls write nothing */
  bool batch;        /* md_profile_batch: flush only when full or ended */
  uint64_t start;    /* header start_ns */
  uint64_t snapshots; /* snapshots written: the next one's number */
  size_t used;
  char buf[65536];
};
struct md_profile_header {
  int pid;
  const char *program, *options; /* options: the MDEBUG_OPTIONS in force */
  uint64_t start_ns;       /* CLOCK_MONOTONIC at start: time 0 of records */
  uint64_t start_unix_ns;  /* CLOCK_REALTIME at start, for display */
};
/* A site: instrumented (file/line/column/function, module -1) or a pc
 * origin (module index and offset in it; function if known). */
struct md_profile_site {
  uint64_t id;
  const char *op, *file, *function, *type; /* NULL or "": unknown */
  uint32_t line, column;
  int32_t module; /* -1: none */
  uint64_t offset;
};
struct md_profile_frame {
  uint32_t module;
  uint64_t offset; /* pc - the module's load address */
};
struct md_profile_limits { /* tracking rules and what they cost so far */
  uint64_t time;
  bool tracking;         /* sampling on (not switched off) */
  uint64_t min_size;     /* track_min_size, 0: none */
  uint64_t max_size;     /* track_max_size: larger blocks always tracked */
  uint64_t max_tracked;  /* the cap on live tracked blocks */
  uint64_t missed;       /* tracked blocks left out at the cap, so far */
  uint64_t lost;         /* frees of tracked blocks not recorded, so far */
};
struct md_profile_totals {
  uint64_t time, live_bytes, live_blocks, allocs, frees, bytes;
};
struct md_profile_site_totals {
  uint64_t site, live_blocks, live_bytes, allocs, frees, bytes, peak_bytes;
};
struct md_profile_block { /* a live sampled block */
  uint64_t site, size, time, addr; /* time: of its allocation */
  uint32_t stack, tid;
};
struct md_profile_free { /* the free of a sampled block */
  uint64_t time, site, size, alloc_time, free_site;
  uint32_t stack, free_stack, tid;
};
struct md_profile_double_free {
  uint64_t time, addr, size, site, free_site, second_site;
  uint32_t stack, tid; /* stack: of the second free */
};
/* "PREFIX.PID.mdprof" into buf; returns its length. */
size_t md_profile_path(char *buf, size_t size, const char *prefix, int pid)
    MD_HIDDEN;
/* Creates path (md_out_open's rules) and writes the magic line and header;
 * false with errno on failure. Every call below returns false once a write
 * has failed (errno from the failing write). */
bool md_profile_open(struct md_profile *p, const char *path,
                     const struct md_profile_header *h) MD_HIDDEN;
bool md_profile_sampling(struct md_profile *p, uint64_t time, uint64_t rate,
                         uint64_t bytes) MD_HIDDEN;
bool md_profile_limits(struct md_profile *p,
                       const struct md_profile_limits *l) MD_HIDDEN;
bool md_profile_module(struct md_profile *p, uint32_t module, const char *path)
    MD_HIDDEN;
/* on: the calls that follow keep their records in the buffer until it
 * fills; off: hands everything to the kernel (a batch is one call, as far
 * as a crash is concerned). */
bool md_profile_batch(struct md_profile *p, bool on) MD_HIDDEN;
bool md_profile_site(struct md_profile *p, const struct md_profile_site *s)
    MD_HIDDEN;
/* At most MD_PROFILE_FRAMES_MAX frames are written. */
bool md_profile_stack(struct md_profile *p, uint32_t id,
                      const struct md_profile_frame *frames, size_t n)
    MD_HIDDEN;
bool md_profile_symbol(struct md_profile *p, uint32_t module, uint64_t offset,
                       const char *function, uint64_t function_offset)
    MD_HIDDEN;
/* Process totals, then one record per site (n of them). */
bool md_profile_totals(struct md_profile *p, const struct md_profile_totals *t,
                       const struct md_profile_site_totals *sites, size_t n)
    MD_HIDDEN;
/* A snapshot of the live sampled blocks (numbered 0, 1, ... per file). */
bool md_profile_snapshot(struct md_profile *p, uint64_t time, const char *label,
                         const struct md_profile_block *blocks, size_t n)
    MD_HIDDEN;
bool md_profile_free(struct md_profile *p, const struct md_profile_free *f)
    MD_HIDDEN;
bool md_profile_double_free(struct md_profile *p,
                            const struct md_profile_double_free *d) MD_HIDDEN;
/* Writes the end record and closes; false if any write failed. */
bool md_profile_close(struct md_profile *p, uint64_t time) MD_HIDDEN;

#endif
