/* site.h - the call-site descriptor the pass emits once per rewritten call.
 *
 * The pass lays this struct out by hand (pass/MdebugPass.cpp, siteType()), so
 * any change here is an ABI change: bump MDEBUG_ABI_VERSION. Descriptors live
 * in the section "mdebug_sites" of each instrumented module; a pointer to one
 * is the run-time identity of a site, `id` the identity that survives across
 * builds (FNV-1a 64 of file name, function, line, column and op; see
 * pass/SiteHash.h, plain C so tools can reuse it). The file name hashed is
 * the one the compiler recorded, without the directory `file` has joined in
 * (relative to the directory the source shares with the build directory, or
 * as given), so a moved checkout keeps its ids while `file` follows it.
 *
 * One field belongs to the runtime: `origin_id`, which the pass emits as 0
 * and the runtime sets, once, to the site's 32-bit origin id (runtime/src/
 * origin.c), so an allocation names its site without a table lookup. That
 * is why descriptors are writable data (never constant, never RELRO), and
 * why the offsets below are asserted by both the pass and the runtime.
 */
#ifndef MDEBUG_SITE_H
#define MDEBUG_SITE_H

#include <stdint.h>

#define MDEBUG_SITE_SECTION "mdebug_sites"

struct mdebug_site {
  uint64_t id;          /* stable hash */
  const char *file;     /* a path the user can open (the location's file
                           joined with its directory when relative); the
                           module's file name as given without locations;
                           never NULL */
  const char *function; /* demangled enclosing function; never NULL */
  uint32_t line;        /* 0 when the compiler had no location */
  uint32_t column;      /* 0 when unknown */
  uint32_t op;          /* enum md_op: which entry point (abi.def order) */
  uint32_t origin_id;   /* the runtime's: 0 as emitted, then the id the
                           runtime gave the site (written once, atomically;
                           the same id from every thread) */
  const char *type;     /* the allocated type where the source says it
                           ("struct node", "int[]"), from the Clang front
                           (pass/ClangPlugin.cpp); NULL when it does not.
                           Not part of the id. */
};

/* The layout the pass emits (x86-64 and every LP64 target): checked by
 * static assertions in pass/MdebugPass.cpp and runtime/src/origin.c. */
#define MDEBUG_SITE_SIZE 48
#define MDEBUG_SITE_ORIGIN_ID_OFFSET 36

/* FNV-1a, 64 bit. Fields are hashed in order file, '\0', function, '\0',
 * line, column, op (each as 4 little-endian bytes). */
#define MDEBUG_FNV_OFFSET 0xcbf29ce484222325ULL
#define MDEBUG_FNV_PRIME 0x100000001b3ULL

#endif
