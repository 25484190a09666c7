/* SiteHash.h - the stable 64-bit id of a call site (struct mdebug_site.id).
 *
 * Owns the one implementation of the hash defined in
 * runtime/include/mdebug/site.h: FNV-1a 64 over the file bytes, a 0 byte, the
 * function bytes, a 0 byte, then line, column and op, each as 4 little-endian
 * bytes. The file hashed is the name the compiler recorded for the location
 * (DIFile's filename, without its directory; the module's source file name
 * without locations), not the joined path the site prints: see
 * MdebugPass.cpp, siteFor(). Valid C99 and C++, header only, no dependency beyond <stdint.h>,
 * <stddef.h> and site.h, so the runtime or mdebug-report can include it to
 * recompute or check an id. Must never allocate, and must never change
 * without bumping MDEBUG_ABI_VERSION (ids are compared across builds).
 */
#ifndef MDEBUG_PASS_SITEHASH_H
#define MDEBUG_PASS_SITEHASH_H

#include <stddef.h>
#include <stdint.h>

#include "mdebug/site.h"

static inline uint64_t md_sitehash_bytes(uint64_t h, const void *data,
                                         size_t len) {
  const unsigned char *p = (const unsigned char *)data;
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= MDEBUG_FNV_PRIME;
  }
  return h;
}

/* v as 4 little-endian bytes, whatever the host byte order. */
static inline uint64_t md_sitehash_u32(uint64_t h, uint32_t v) {
  unsigned char le[4];
  le[0] = (unsigned char)(v & 0xff);
  le[1] = (unsigned char)((v >> 8) & 0xff);
  le[2] = (unsigned char)((v >> 16) & 0xff);
  le[3] = (unsigned char)((v >> 24) & 0xff);
  return md_sitehash_bytes(h, le, 4);
}

/* The id of the site (file, function, line, column, op). file and function
 * are byte strings of the given lengths (need not be 0-terminated). */
static inline uint64_t md_sitehash(const char *file, size_t file_len,
                                   const char *function, size_t function_len,
                                   uint32_t line, uint32_t column,
                                   uint32_t op) {
  static const unsigned char zero = 0;
  uint64_t h = MDEBUG_FNV_OFFSET;
  h = md_sitehash_bytes(h, file, file_len);
  h = md_sitehash_bytes(h, &zero, 1);
  h = md_sitehash_bytes(h, function, function_len);
  h = md_sitehash_bytes(h, &zero, 1);
  h = md_sitehash_u32(h, line);
  h = md_sitehash_u32(h, column);
  h = md_sitehash_u32(h, op);
  return h;
}

#endif /* MDEBUG_PASS_SITEHASH_H */
