// Proves: a correct C program that leans on libc's own allocations (stdio
// buffers, fopen/fclose, setvbuf, strerror, qsort, getline + free,
// localtime) gets no report and exit status 0: libc's long-lived blocks are
// not blamed on the program. The bug run adds one real leak, which must be
// the only one reported.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t %s 2>&1 | %FileCheck %s
// RUN: %t %s clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int compare(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOFBF, 8192);
  printf("start %d %s %.2f\n", 42, "text", 3.5);

  FILE *f = fopen(argv[1], "r");
  if (!f)
    return 2;
  char *line = NULL;
  size_t cap = 0;
  size_t lines = 0;
  while (getline(&line, &cap, f) > 0)
    lines++;
  free(line);
  fclose(f);
  printf("read %zu lines\n", lines > 10 ? (size_t)10 : lines);

  FILE *missing = fopen("/nonexistent/mdebug", "r");
  printf("fopen: %s / %s\n", missing ? "?" : strerror(errno), strerror(12345));

  enum { N = 20000 };
  int *values = malloc(N * sizeof *values);
  for (int i = 0; i < N; i++)
    values[i] = (i * 7919) % N;
  qsort(values, N, sizeof *values, compare);
  printf("sorted: %d %d\n", values[0], values[N - 1]);
  free(values);

  time_t t = 0;
  struct tm *tm = localtime(&t);
  char when[64];
  strftime(when, sizeof when, "%Y", tm);
  printf("epoch year %s\n", when[0] ? "ok" : "?");

  if (argc < 3) {
    char *forgotten = malloc(64);
    forgotten[0] = 0;
  }
  return 0;
}
// CHECK-NOT: mdebug: ERROR
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 64 bytes leaked in 1 block
// CHECK-NEXT: 64 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}correct_c.c:55:23 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 64 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 64 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: start 42 text 3.50
// CLEAN-NEXT: read 10 lines
// CLEAN-NEXT: fopen: No such file or directory / Unknown error 12345
// CLEAN-NEXT: sorted: 0 19999
// CLEAN-NEXT: epoch year ok
// CLEAN-NOT: mdebug
