/* stacks.h - stacks: unwinding, the stack depot, symbolizing, the backtrace
 * option (unwind.c, depot.c, symbolize.c, backtrace.c). What the rest of the
 * runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_STACKS_H
#define MDEBUG_INTERNAL_STACKS_H

#include "base.h"

/* The calling thread's call sites (return address - 1), innermost first,
 * without any frame of the runtime (this copy's or an announced one's);
 * at most max. */
size_t md_unwind(uintptr_t *pcs, size_t max) MD_HIDDEN;
/* The depot's hash of a stack, a frame at a time (depot.c finishes it
 * with the count and a strong mix): two instructions a frame in the walk
 * itself, xor and a multiply by a sign-extended 32-bit immediate (no
 * register held for it), which carries each pc's bits to every higher
 * bit of h. */
#define MD_STACK_HASH_INIT 0x9e3779b97f4a7c15ull
static inline uint64_t md_stack_hash_step(uint64_t h, uintptr_t pc) {
  return (h ^ pc) * (uint64_t)(int64_t)(int32_t)0x9e3779b1u;
}
/* md_unwind, and *hash: MD_STACK_HASH_INIT stepped through the return
 * addresses of the frames stored (each pc + 1, for md_depot_put_hashed). fp:
 * the frame to start from, one of the caller's own chain (the runtime's frames
 * below the program's are then not read at all; a bad one stops the walk as any
 * bad frame does), or 0: this call's own. */
size_t md_unwind_hashed(uintptr_t *pcs, size_t max, uintptr_t fp,
                        uint64_t *hash) MD_HIDDEN;
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
/* The same, with the hash md_unwind_hashed made of these frames. */
uint32_t md_depot_put_hashed(const uintptr_t *pcs, size_t n, uint64_t hash)
    MD_HIDDEN;
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
/* The same, the walk starting at fp (md_unwind_hashed's): the allocator's
 * inline paths give the frame of their entry point, so the runtime's own
 * frames below it are not walked. */
uint32_t md_backtrace_alloc_at(size_t size, uintptr_t fp) MD_HIDDEN;
uint32_t md_backtrace_free_at(uintptr_t fp) MD_HIDDEN;
/* The frame of the caller of the function that uses it (its saved frame
 * pointer: the runtime is built with frame pointers). */
#define MD_CALLER_FRAME() (((const uintptr_t *)__builtin_frame_address(0))[0])
/* One frame line, malloc debug's shape, into buf. */
size_t md_frame_format(char *buf, size_t size, size_t index, uintptr_t pc)
    MD_HIDDEN;

/* Fork (lifecycle.def): the copies lock reset in the child (unwind.c). */
void md_unwind_atfork_child(void) MD_HIDDEN;

#endif
