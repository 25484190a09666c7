/* pagemap_util.h - for tests that prove pages were never touched: how many
 * pages of [lo, hi) are present (mapped) by /proc/self/pagemap. A page read
 * but never written counts: the zero page is mapped, or, on a kernel
 * without one for reads, a page of its own. */
#ifndef PAGEMAP_UTIL_H
#define PAGEMAP_UTIL_H

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

/* Pages of [lo, hi) present; *pages (if not NULL) the pages counted. lo is
 * taken down to its page; a page that cannot be read counts as absent. */
static unsigned pages_present(uintptr_t lo, uintptr_t hi, unsigned *pages) {
  int fd = open("/proc/self/pagemap", O_RDONLY);
  unsigned present = 0, n = 0;
  for (uintptr_t a = lo & ~(uintptr_t)4095; a < hi; a += 4096, n++) {
    uint64_t e = 0;
    if (fd >= 0 && pread(fd, &e, sizeof(e), (off_t)(a / 4096 * 8)) == sizeof(e))
      present += (unsigned)(e >> 63);
  }
  if (fd >= 0)
    close(fd);
  if (pages)
    *pages = n;
  return present;
}

#endif
