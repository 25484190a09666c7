// Proves: the floor under which freed large blocks keep their pages
// resident scales with the program's heap, a sixteenth of it from 256 KiB
// to 1 MiB: a program of a few MiB that frees eight 300 KB buffers keeps
// little more than the 256 KiB floor, the buffer freed last and one the
// quarantine keeps (it was charged 1 MiB more); with 24 MiB of small
// blocks live, it keeps up to 1 MiB of them for reuse. With the defaults
// and with every check off.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t small 2>&1 | %FileCheck %s --check-prefix=SMALL --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t small 2>&1 | %FileCheck %s --check-prefix=SMALL --implicit-check-not=mdebug
// RUN: %t big 2>&1 | %FileCheck %s --check-prefix=BIG --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t big 2>&1 | %FileCheck %s --check-prefix=BIG --implicit-check-not=mdebug
// SMALL: small heap: freed buffers keep the floor
// BIG: big heap: freed buffers keep up to 1 MiB
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "Inputs/resident.h"

#define BUFFERS 8
#define SIZE (300 * 1024)

int main(int argc, char **argv) {
  int big = argc > 1 && !strcmp(argv[1], "big");
  static void *smalls[24 * 1024];
  if (big) /* 24 MiB of small blocks, live to the end */
    for (int i = 0; i < 24 * 1024; i++)
      memset(smalls[i] = malloc(1000), 1, 1000);
  char *b[BUFFERS];
  long before = resident_kib();
  for (int i = 0; i < BUFFERS; i++)
    memset(b[i] = malloc(SIZE), i + 1, SIZE);
  for (int i = 0; i < BUFFERS; i++)
    free(b[i]);
  long held = resident_kib() - before;
  /* The floor, the span freed last, one kept block, slack. */
  long limit_small = 256 + 2 * SIZE / 1024 + 100;
  if (!big)
    printf("small heap: %s\n", held <= limit_small
                                   ? "freed buffers keep the floor"
                                   : "freed buffers keep too much");
  else
    printf("big heap: %s\n", held > limit_small && held <= 1024 + 2 * SIZE / 1024 + 256
                                 ? "freed buffers keep up to 1 MiB"
                                 : "freed buffers keep too little or too much");
  printf("held %ld KiB\n", held);
  for (int i = 0; i < 24 * 1024 && big; i++)
    free(smalls[i]);
  return 0;
}
