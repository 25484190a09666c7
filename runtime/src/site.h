/* site.h - naming where a call came from (site.c). What the rest of the
 * runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_SITE_H
#define MDEBUG_INTERNAL_SITE_H

#include "base.h"

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

#endif
