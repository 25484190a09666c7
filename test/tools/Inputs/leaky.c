/* leaky.c - a program for mdebug-report's tests: `grow` leaks one 48-byte
 * block per round, `churn` allocates and frees blocks of a few sizes, so
 * that heap dumps (mdebug_dump_heap after rounds/2 and after all rounds, and
 * backtrace_dump_on_exit) and record_allocs files show one growing site
 * among bounded ones. The grown blocks stay reachable (a static array), so
 * the leak check at exit has nothing to say. argv[1]: directory for the two
 * dumps ("" or none: no dumps); argv[2]: rounds (default 40).
 */
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *kept[64];

__attribute__((noinline)) static void *grow(void) {
  void *p = malloc(48);
  memset(p, 1, 48);
  return p;
}

__attribute__((noinline)) static void churn(int round) {
  for (int k = 0; k < 8; k++) {
    int slot = (round * 7 + k * 13) % 64;
    free(kept[slot]);
    kept[slot] = malloc(16 + (size_t)((round + k) % 4) * 100);
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 2 ? atoi(argv[2]) : 40;
  static void *leaked[100000];
  char path[4096];
  for (int round = 0; round < rounds; round++) {
    leaked[round] = grow();
    churn(round);
    if (argc > 1 && argv[1][0] && (round == rounds / 2 || round == rounds - 1)) {
      snprintf(path, sizeof(path), "%s/dump.%s.txt", argv[1],
               round == rounds - 1 ? "2" : "1");
      if (mdebug_dump_heap(path) != 0)
        return 1;
    }
  }
  for (int k = 0; k < 64; k++)
    free(kept[k]);
  return 0;
}
