/* site.h - the call-site descriptor the pass emits once per rewritten call.
 *
 * The pass lays this struct out by hand (pass/MdebugPass.cpp, siteType()), so
 * any change here is an ABI change: bump MDEBUG_ABI_VERSION. Descriptors live
 * in the section "mdebug_sites" of each instrumented module; a pointer to one
 * is the run-time identity of a site, `id` the identity that survives across
 * builds (FNV-1a 64 of file, line, column, function and op; see
 * pass/SiteHash.h, plain C so tools can reuse it).
 */
#ifndef MDEBUG_SITE_H
#define MDEBUG_SITE_H

#include <stdint.h>

#define MDEBUG_SITE_SECTION "mdebug_sites"

struct mdebug_site {
  uint64_t id;          /* stable hash */
  const char *file;     /* as given to the compiler; never NULL */
  const char *function; /* demangled enclosing function; never NULL */
  uint32_t line;        /* 0 when the compiler had no location */
  uint32_t column;      /* 0 when unknown */
  uint32_t op;          /* enum md_op: which entry point (abi.def order) */
  uint32_t flags;       /* reserved, 0 */
};

/* FNV-1a, 64 bit. Fields are hashed in order file, '\0', function, '\0',
 * line, column, op (each as 4 little-endian bytes). */
#define MDEBUG_FNV_OFFSET 0xcbf29ce484222325ULL
#define MDEBUG_FNV_PRIME 0x100000001b3ULL

#endif
