/* instr_lib.c - a shared library built with mdebug-clang -shared and loaded
 * with dlopen by an instrumented program: its allocation sites carry
 * file:line:col like the program's. Used by test/runtime/uninstrumented. */
#include <stdlib.h>
#include <string.h>

char *lib_make_name(const char *prefix) {
  size_t n = strlen(prefix);
  char *name = malloc(n + 5);
  memcpy(name, prefix, n);
  memcpy(name + n, "-lib", 5);
  return name;
}

void lib_release(void *p) { free(p); }
