// Proves: a large block's header is never trusted blindly. A stray write 8
// KiB before a freed large block lands in its header page (issue 27): here
// the word that says where the block's span starts is made to point at a
// mapping of the program's. When the block leaves the quarantine, mdebug
// reports the header as corrupted (its check word fails) and leaves the
// block's pages alone; it never unmaps or protects the program's mapping,
// which still holds what the program wrote. Both for a block the
// quarantine keeps (200 KB: filled and checked) and one it gives back to
// the OS (4 MiB, more than it keeps). The clean run writes nothing there.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %not %t 204800 2>&1 | %FileCheck %s
// RUN: %not %t 4194304 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAPPING (4 << 20)

int main(int argc, char **argv) {
  int clean = argc > 1 && !strcmp(argv[1], "clean");
  size_t size = argc > 1 && !clean ? strtoul(argv[1], NULL, 0) : 204800;
  char *theirs = mmap(NULL, MAPPING, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(theirs, 42, MAPPING);
  /* A block of whole pages starts at its first page, two pages after its
   * header page. */
  char *p = malloc(size);
  memset(p, 1, size);
  free(p);
  int smashed = 0;
  if (!clean) {
    uintptr_t *header = (uintptr_t *)(p - 8192);
    for (int i = 0; i < 32; i++)
      if (header[i] == (uintptr_t)header) { /* the span's start */
        header[i] = (uintptr_t)theirs;
        smashed++;
      }
  }
  for (int i = 0; i < 600; i++) { /* out of the quarantine, and reuse */
    char *volatile q = malloc(i % 2 ? 204800 : 1048576);
    memset(q, 3, i % 2 ? 204800 : 1048576);
    free(q);
  }
  size_t wrong = 0;
  for (size_t k = 0; k < MAPPING; k++)
    wrong += theirs[k] != 42;
  printf("words smashed: %d; the program's mapping: %zu wrong bytes\n",
         smashed, wrong);
  munmap(theirs, MAPPING);
  return 0;
}
// CHECK: mdebug: ERROR: heap metadata corrupted in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} HEADER CORRUPTED
// CHECK-NEXT:   the header of this large block, in the page at 0x{{[0-9a-f]+}} (8192 bytes before the block), no longer holds what mdebug wrote there: a stray write before the block?
// CHECK-NEXT:   detected when mdebug looked the block up (a free, a realloc, or the block leaving the free_track quarantine); mdebug leaves the block's pages alone from now on (never reused, unmapped or protected)
// CHECK: words smashed: 1; the program's mapping: 0 wrong bytes
// CHECK: mdebug: SUMMARY: 1 error (1 heap metadata corrupted)
// CLEAN: words smashed: 0; the program's mapping: 0 wrong bytes
// CLEAN-NOT: mdebug
