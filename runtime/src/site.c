/* site.c - names where a call came from: a compiler-emitted site descriptor
 * ("file:line:col (function)", and " as TYPE" when the Clang front found
 * the allocated type in the source) or, for code that was not instrumented, a
 * return address named as a frame is (md_pc_describe: "pc 0xADDR in
 * function file:line:col (module)", ADDR what addr2line takes).
 * Also the names and properties of the call kinds (ops.def). Never
 * allocates (md_symbolize maps module files, never through malloc; the
 * symbolizer helper is a process of its own).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "base.h"
#include "options.h"
#include "print.h"
#include "site.h"
#include "stacks.h"

/* ops.def has one line per abi.def entry, in the same order. */
enum {
#define MD_OP(NAME, DISPLAY, FAMILY, RELEASE, RECORD) OPS_LINE_##NAME,
#include "ops.def"
  OPS_LINES
};
#define MD_OP(NAME, DISPLAY, FAMILY, RELEASE, RECORD)                          \
  _Static_assert(OPS_LINE_##NAME == MD_OP_##NAME,                              \
                 "ops.def: " #NAME " is not on abi.def's line for it");
#include "ops.def"
_Static_assert(OPS_LINES == MD_OP_COUNT,
               "ops.def and abi.def list different entry points");

enum { RECORD_NONE = -1 };
#define RECORD_MALLOC MD_REC_MALLOC
#define RECORD_CALLOC MD_REC_CALLOC
#define RECORD_MEMALIGN MD_REC_MEMALIGN
#define RECORD_REALLOC MD_REC_REALLOC
#define RECORD_FREE MD_REC_FREE

static const struct {
  const char *name;
  bool release;
  int record; /* enum md_record_type, or RECORD_NONE */
} ops[MD_OP_COUNT] = {
#define MD_OP(NAME, DISPLAY, FAMILY, RELEASE, RECORD)                          \
  {DISPLAY, RELEASE, RECORD_##RECORD},
#include "ops.def"
};

const char *md_op_name(unsigned op) {
  return op < MD_OP_COUNT ? ops[op].name : "?";
}

bool md_op_is_release(unsigned op) {
  return op < MD_OP_COUNT && ops[op].release;
}

bool md_op_records_itself(unsigned op) {
  return op < MD_OP_COUNT &&
         (ops[op].record == MD_REC_CALLOC || ops[op].record == MD_REC_REALLOC);
}

/* A site's source path as reports print it: with strip_path_prefix, the
 * sanitizers' rule (everything up to and including the first occurrence of
 * the prefix goes, then a leading "./"). */
static const char *shown_path(const char *path) {
  const char *prefix = md_opt.strip_path_prefix;
  if (!prefix[0])
    return path;
  const char *at = strstr(path, prefix);
  if (at)
    path = at + strlen(prefix);
  if (path[0] == '.' && path[1] == '/')
    path += 2;
  return path;
}

MD_COLD size_t md_source_describe(char *buf, size_t size, const char *file,
                                  const char *function, uint32_t line,
                                  uint32_t column) {
  /* Names from the source (#line can say anything): escaped, so a report
   * line is one line. */
  char fbuf[4 * MD_PATH_MAX], nbuf[4 * MD_PATH_MAX];
  file = md_escaped(fbuf, sizeof(fbuf), shown_path(file));
  function = md_escaped(nbuf, sizeof(nbuf), function);
  if (line && column)
    return md_format(buf, size, "%s:%u:%u (%s)", file, line, column, function);
  if (line)
    return md_format(buf, size, "%s:%u (%s)", file, line, function);
  return md_format(buf, size, "%s (%s)", file, function);
}

MD_COLD size_t md_origin_describe(char *buf, size_t size, md_origin_t origin) {
  if (!origin)
    return md_format(buf, size, "<unknown>");
  if (!md_origin_is_pc(origin)) {
    const struct mdebug_site *s = (const struct mdebug_site *)origin;
    char tbuf[4 * MD_PATH_MAX];
    size_t n = md_source_describe(buf, size, s->file, s->function, s->line,
                                  s->column);
    if (s->type && n < size) /* what the source says it allocates */
      n += md_format(buf + n, size - n, " as %s",
                     md_escaped(tbuf, sizeof(tbuf), s->type));
    return n;
  }
  /* pc - 1: a return address may already belong to the next function (and
   * its line is the next statement's); the call instruction's is the
   * caller's. The module's full symbol table names static functions too (a
   * library's own malloc wrapper, called through a function pointer). */
  return md_pc_describe(buf, size, (origin & ~MD_ORIGIN_PC_BIT) - 1);
}

MD_COLD size_t md_pc_describe(char *buf, size_t size, uintptr_t pc) {
  struct md_symbol sym;
  if (!md_symbolize_source(pc, &sym))
    return md_format(buf, size, "pc 0x%lx <unknown>", (unsigned long)pc);
  size_t n = md_format(buf, size, "pc 0x%lx ", (unsigned long)sym.rel_pc);
  if (sym.function && sym.file)
    n += md_format(buf + n, size - n, "in %s %s:%u", sym.function,
                   shown_path(sym.file), sym.line);
  else if (sym.function)
    n += md_format(buf + n, size - n, "in %s+0x%zx", sym.function,
                   sym.offset);
  if (sym.function && sym.file && sym.column)
    n += md_format(buf + n, size - n, ":%u", sym.column);
  return n + md_format(buf + n, size - n, "%s(%s)", sym.function ? " " : "",
                       shown_path(sym.module));
}

/* Is `origin` code in one of the modules whose file names start with one of
 * the prefixes? */
static bool origin_in(md_origin_t origin, const char *const *prefixes,
                      size_t count) {
  if (!md_origin_is_pc(origin))
    return false;
  Dl_info info;
  uintptr_t pc = origin & ~MD_ORIGIN_PC_BIT;
  if (!dladdr((void *)(pc - 1), &info) || !info.dli_fname)
    return false;
  const char *base = strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  for (size_t i = 0; i < count; i++)
    if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
      return true;
  return false;
}

bool md_origin_is_system(md_origin_t origin) {
  static const char *const system_libs[] = {
      "libc.so", "libstdc++.so", "ld-linux", "libgcc_s.so", "libm.so",
      "libpthread.so", "libdl.so", "librt.so", "libc++.so", "libc++abi.so"};
  return origin_in(origin, system_libs, sizeof(system_libs) / sizeof(system_libs[0]));
}

bool md_origin_is_loader(md_origin_t origin) {
  static const char *const loader[] = {"ld-linux", "ld64.so", "ld.so"};
  return origin_in(origin, loader, sizeof(loader) / sizeof(loader[0]));
}

MD_COLD void md_origin_names(md_origin_t origin, struct md_origin_names *out) {
  const void *addr;
  out->function = out->file = NULL;
  out->module[0] = '\0';
  if (!origin)
    return;
  if (md_origin_is_pc(origin)) {
    addr = (const void *)((origin & ~MD_ORIGIN_PC_BIT) - 1);
  } else {
    const struct mdebug_site *s = (const struct mdebug_site *)origin;
    out->function = s->function;
    out->file = s->file;
    addr = s;
  }
  struct md_symbol sym; /* as md_origin_describe names it */
  if (!md_symbolize((uintptr_t)addr, &sym))
    return;
  md_format(out->module, sizeof(out->module), "%s", sym.module);
  if (!out->function)
    out->function = sym.function;
}
