/* An instrumented library that leaks a mapping (lib_lose) and a block. */
#include <stdlib.h>
#include <sys/mman.h>

void *lib_lose(void) {
  return mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

char *lib_block(void) { return malloc(41); }
