/* mallinfo.c - glibc's malloc extras, answered for mdebug's heap (glibc's
 * own allocator is not used): mallinfo2 / mallinfo (mdebug's figures in
 * glibc's fields), malloc_stats (the same as log_allocator_stats),
 * malloc_trim (gives whole free pages back to the OS now), mallopt
 * (accepted and ignored: mdebug's heap has no such knobs) and malloc_info
 * (a small XML document with the totals). An inert copy of the runtime
 * (copies.c) answers zeros: the executable exports these (the dynamic list)
 * so calls reach the active copy. Never allocates, but malloc_info's stdio
 * may, outside any lock of ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>

#include "base.h"
#include "copies.h"
#include "heap.h"
#include "init.h"
#include "stats.h"

/* Cold code (glibc's malloc extras, rarely called): base.h. */
#pragma clang section text = "mdebug_cold"

MD_EXPORT struct mallinfo2 mallinfo2(void) {
  struct md_heap_stats st;
  struct mallinfo2 mi = {0};
  if (MD_UNLIKELY(!md_copy_active()))
    return mi; /* an inert copy has no heap (copies.c) */
  md_ensure_init();
  md_heap_stats(&st);
  mi.arena = st.committed;           /* bytes the size classes took */
  mi.ordblks = st.free_blocks;       /* free slots */
  mi.hblks = st.secondary_blocks;    /* large blocks, a mapping each */
  mi.hblkhd = st.secondary_bytes;
  mi.uordblks = st.live_bytes;       /* bytes the program asked for */
  mi.fordblks = st.committed > st.live_footprint ? st.committed - st.live_footprint : 0;
  mi.keepcost = 0;
  return mi;
}

static int clamp(size_t x) { return x > INT_MAX ? INT_MAX : (int)x; }

MD_EXPORT struct mallinfo mallinfo(void) {
  struct mallinfo2 m2 = mallinfo2();
  struct mallinfo mi = {0};
  mi.arena = clamp(m2.arena);
  mi.ordblks = clamp(m2.ordblks);
  mi.hblks = clamp(m2.hblks);
  mi.hblkhd = clamp(m2.hblkhd);
  mi.uordblks = clamp(m2.uordblks);
  mi.fordblks = clamp(m2.fordblks);
  return mi;
}

MD_EXPORT void malloc_stats(void) {
  if (md_copy_active())
    md_stats_log();
}

MD_EXPORT int malloc_trim(size_t pad) {
  (void)pad;
  if (MD_UNLIKELY(!md_copy_active()))
    return 0;
  md_ensure_init();
  return md_heap_release_all() > 0;
}

MD_EXPORT int mallopt(int param, int value) {
  (void)param;
  (void)value;
  return 1;
}

MD_EXPORT int malloc_info(int options, FILE *fp) {
  if (options != 0) {
    errno = EINVAL;
    return -1;
  }
  struct mallinfo2 mi = mallinfo2();
  fprintf(fp,
          "<malloc version=\"mdebug-1\">\n"
          "<total type=\"committed\" size=\"%zu\"/>\n"
          "<total type=\"in-use\" size=\"%zu\"/>\n"
          "<total type=\"mmap\" count=\"%zu\" size=\"%zu\"/>\n"
          "</malloc>\n",
          mi.arena, mi.uordblks, mi.hblks, mi.hblkhd);
  return 0;
}
