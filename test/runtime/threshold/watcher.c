// Proves: the watcher thread notices the resident size crossing
// rss_threshold by itself: the program touches pages of a mapping made
// before, then makes no call mdebug sees at all, and waits (at most 20 s)
// for the heap dump to appear.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="rss_threshold=67108864 backtrace_dump_prefix=%t.dir/dump" %t %t.dir 2>&1 | %FileCheck %s
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int dumped(const char *dir) {
  int found = 0;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));)
    found |= strstr(e->d_name, ".rss.1.txt") != NULL;
  if (d)
    closedir(d);
  return found;
}

static char *p;

int main(int argc, char **argv) {
  size_t n = (size_t)96 << 20;
  p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  memset(p, 1, n);
  for (int ms = 0; ms < 20000 && !dumped(argv[1]); ms += 10)
    usleep(10000);
  fprintf(stderr, "%s\n", dumped(argv[1]) ? "seen" : "not seen");
  return 0;
}
// CHECK: mdebug: rss_threshold: the resident size reached {{[0-9]+}} bytes (threshold 67108864)
// CHECK: seen
