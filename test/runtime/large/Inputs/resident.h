/* resident.h - what the large-block tests measure of the process: its
 * resident KiB and its page faults so far. Included by the tests of this
 * directory; not a test. */
#ifndef LARGE_INPUTS_RESIDENT_H
#define LARGE_INPUTS_RESIDENT_H
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

/* Resident KiB now (/proc/self/statm's second field, in pages). */
static long resident_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, pages = 0;
  if (!f || fscanf(f, "%ld %ld", &size, &pages) != 2)
    return -1;
  fclose(f);
  return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Page faults so far, minor and major. */
static inline long faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}
#endif
