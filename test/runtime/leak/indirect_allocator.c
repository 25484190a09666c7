// Proves: an allocation made through a replaceable allocator pointer that
// holds the runtime's malloc (libuv's uv__allocator.local_malloc) is named
// at the indirect call's file:line, not "at pc ... (uv__malloc+N)"; calloc,
// realloc and free through such pointers too; a pointer to the program's
// own allocator is still called (its count goes up) and its allocation is named at its own
// malloc call. At -O0 and -O2. The clean case frees everything.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %mdebug_clang -g -O2 %s -o %t.o2
// RUN: %not %t.o2 2>&1 | %FileCheck %s
// RUN: %t.o2 clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct allocator {
  void *(*local_malloc)(size_t);
  void *(*local_calloc)(size_t, size_t);
  void *(*local_realloc)(void *, size_t);
  void (*local_free)(void *);
};
static struct allocator uv_allocator = {malloc, calloc, realloc, free};
static int own_calls;

static void *own_malloc(size_t n) {
  own_calls++;
  return malloc(n + 1);
}

__attribute__((noinline)) void *uv_malloc(size_t n) {
  return uv_allocator.local_malloc(n);
}
__attribute__((noinline)) void *uv_calloc(size_t n, size_t m) {
  return uv_allocator.local_calloc(n, m);
}
__attribute__((noinline)) void *uv_realloc(void *p, size_t n) {
  return uv_allocator.local_realloc(p, n);
}
__attribute__((noinline)) void uv_free(void *p) {
  uv_allocator.local_free(p);
}

static char *my_strdup(const char *s) {
  char *p = uv_malloc(strlen(s) + 1);
  strcpy(p, s);
  return p;
}

void *volatile sink[4];

int main(int argc, char **argv) {
  int clean = argc > 1;
  sink[0] = my_strdup("hello");
  sink[1] = uv_calloc(3, 8);
  sink[2] = uv_realloc(uv_malloc(4), 100);
  void *gone = uv_malloc(16);
  uv_free(gone);
  uv_allocator.local_malloc = own_malloc;
  sink[3] = uv_malloc(200);
  printf("own allocator called %d time%s\n", own_calls,
         own_calls == 1 ? "" : "s");
  if (clean)
    for (int i = 0; i < 4; i++)
      free(sink[i]);
  for (int i = 0; i < 4; i++)
    sink[i] = NULL;
  return 0;
}
// CHECK: own allocator called 1 time
// CHECK: mdebug: ERROR: memory leak
// CHECK-DAG: allocated by malloc at {{.*}}indirect_allocator.c:28:10 (own_malloc)
// CHECK-DAG: allocated by realloc at {{.*}}indirect_allocator.c:38:10 (uv_realloc)
// CHECK-DAG: allocated by calloc at {{.*}}indirect_allocator.c:35:10 (uv_calloc)
// CHECK-DAG: allocated by malloc at {{.*}}indirect_allocator.c:32:10 (uv_malloc)
// CHECK-NOT: at pc
// CHECK: mdebug: SUMMARY: 0 errors, 331 bytes leaked in 4 blocks
//
// CLEAN: own allocator called 1 time
// CLEAN-NOT: mdebug
