#!/usr/bin/env python3
"""growth_program.py - writes the C program of growth.test: 1,000 allocating
sites whose live bytes are noisy but bounded (each period every site frees
what it holds and allocates 0 to 4 blocks of 16 bytes to 4 KiB, from a
fixed seed), a slow leak (one more 256-byte block a period, never freed,
in planted_leak()), and a start-up cache (filled in the first periods, then
kept: flat after the warm-up). After each period the program takes a
snapshot (mdebug_snapshot), so the profile has one set of exact per-site
totals a period. Each site is a function of its own, on its own line, so
every site has its own location.

usage: growth_program.py > prog.c
"""
SITES = 1000
print("""#include <mdebug/mdebug.h>
#include <stdlib.h>
#include <time.h>

#define SITES %d
#define PERIODS 40
static void *held[SITES][4];
static void *leaked[PERIODS];
static void *cache[64];
static unsigned long long rng = 88172645463325252ull;
static unsigned next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng >> 11);
}
""" % SITES)
for i in range(SITES):
    print("static void *site_%d(size_t n) { return malloc(n); }" % i)
print("typedef void *(*site_fn)(size_t);")
print("static const site_fn sites[SITES] = {%s};" %
      ", ".join("site_%d" % i for i in range(SITES)))
print("""
static void *planted_leak(void) { return malloc(256); }
static void *fill_cache(void) { return malloc(1024); }

int main(void) {
  struct timespec pause = {0, 5000000};
  for (int period = 0; period < PERIODS; period++) {
    for (int s = 0; s < SITES; s++) {
      for (int k = 0; k < 4; k++) {
        free(held[s][k]);
        held[s][k] = NULL;
      }
      int blocks = next_random() % 5;
      for (int k = 0; k < blocks; k++)
        held[s][k] = sites[s](16 + next_random() % 4081);
    }
    leaked[period] = planted_leak();
    if (period < 3)
      for (int k = 0; k < 64; k++)
        if (!cache[k] && next_random() % 2)
          cache[k] = fill_cache();
    nanosleep(&pause, NULL);
    mdebug_snapshot("period");
  }
  return 0;
}""")
