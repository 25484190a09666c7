// Adapted from compiler-rt test/asan/TestCases/Posix/large_allocator_unpoisons_on_free.cpp (a freed 1 MiB page-aligned block whose first page the program then maps over with mmap(MAP_FIXED) and writes: no heap error).
// EXPECT: - clean
// ASAN_OPTIONS: quarantine_size_mb=0
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *my_memalign(size_t boundary, size_t size) {
  void *p;
  posix_memalign(&p, boundary, size);
  return p;
}

int main() {
  const long kPageSize = sysconf(_SC_PAGESIZE);
  void *p = my_memalign(kPageSize, 1024 * 1024);
  free(p);

  char *q = (char *)mmap(p, kPageSize, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0);
  assert(q == p);
  memset(q, 42, kPageSize);
  munmap(q, kPageSize);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
