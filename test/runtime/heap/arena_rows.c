// Proves: a program of one thread never writes the rows of the primary's
// table of arenas (primary.c: `arenas`, a row of per-class states for each
// of 8 arenas) but the first, however many release passes run (the
// shrinking passes of freed classes, malloc_trim's pass over every class);
// those rows' pages are then never dirty (/proc/self/pagemap: written
// private pages are mapped exclusively, untouched or only read ones are
// absent or the shared zero page). Once threads have used other arenas,
// their rows are written (the check can fail). The table is found by its
// name in the executable's symbol table.
// RUN: %mdebug_clang -O1 -g %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %t threads 2>&1 | %FileCheck %s --check-prefix=THREADS
// CHECK-NOT: mdebug
// CHECK: other arenas' rows: 0 of {{[1-9][0-9]*}} pages written
// CHECK-NOT: mdebug
// THREADS: other arenas' rows: {{[1-9][0-9]*}} of {{[1-9][0-9]*}} pages written
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARENAS 8 /* MD_ARENAS */

static uintptr_t bias;

static int first_module(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size, (void)arg;
  bias = info->dlpi_addr;
  return 1;
}

/* The address and size of the local object `name` in /proc/self/exe. */
static int find_symbol(const char *name, uintptr_t *addr, size_t *size) {
  int fd = open("/proc/self/exe", O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0)
    return 0;
  const char *f = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (f == MAP_FAILED)
    return 0;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB)
      continue;
    const Elf64_Sym *sym = (const Elf64_Sym *)(f + sh[i].sh_offset);
    const char *names = f + sh[sh[i].sh_link].sh_offset;
    for (size_t j = 0; j < sh[i].sh_size / sizeof(*sym); j++)
      if (ELF64_ST_TYPE(sym[j].st_info) == STT_OBJECT &&
          strcmp(names + sym[j].st_name, name) == 0) {
        dl_iterate_phdr(first_module, NULL);
        *addr = bias + sym[j].st_value;
        *size = sym[j].st_size;
        munmap((void *)f, st.st_size);
        return 1;
      }
  }
  munmap((void *)f, st.st_size);
  return 0;
}

/* Allocates and frees enough of several classes for release passes. */
static void *churn(void *arg) {
  (void)arg;
  enum { N = 40000 };
  static __thread void *blocks[N];
  for (int round = 0; round < 4; round++) {
    size_t size = 24 + 40 * round;
    for (int i = 0; i < N; i++)
      blocks[i] = malloc(size);
    for (int i = 0; i < N; i++)
      free(blocks[i]);
  }
  return NULL;
}

int main(int argc, char **argv) {
  uintptr_t table;
  size_t size;
  if (!find_symbol("arenas", &table, &size) || size % ARENAS) {
    printf("no table of arenas\n");
    return 1;
  }
  if (argc > 1) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
      pthread_create(&t[i], NULL, churn, NULL);
    for (int i = 0; i < 3; i++)
      pthread_join(t[i], NULL);
  }
  churn(NULL);
  malloc_trim(0);
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t lo = (table + size / ARENAS + page - 1) & ~(uintptr_t)(page - 1);
  uintptr_t hi = (table + size) & ~(uintptr_t)(page - 1);
  int fd = open("/proc/self/pagemap", O_RDONLY);
  unsigned written = 0, pages = 0;
  for (uintptr_t p = lo; p < hi; p += page, pages++) {
    uint64_t e = 0;
    if (pread(fd, &e, 8, (off_t)(p / page * 8)) != 8)
      return 1;
    written += (e >> 63 & 1) && (e >> 56 & 1); /* present, exclusive */
  }
  printf("other arenas' rows: %u of %u pages written\n", written, pages);
  return 0;
}
