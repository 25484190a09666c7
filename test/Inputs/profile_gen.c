/* profile_gen.c - writes heap profiles through the runtime's profile writer
 * (profile.c), for mdebug-report's tests and for bench/: a simulated program
 * whose allocation sites each keep a set of live blocks, sampled by bytes as
 * the runtime samples them.
 *
 *   profile_gen [options] OUT.mdprof
 *     --sites=N         allocation sites (default 1000)
 *     --periods=N       periodic totals, one a second (default 60)
 *     --snapshots=N     snapshots, evenly spread (default 6)
 *     --leak=I          the site that leaks slowly (default 637; -1: none)
 *     --sample-bytes=B  byte sampling period (default 4096; 0: every block)
 *     --seed=N          random seed (default 1)
 *     --no-totals       write no periodic totals (snapshots only)
 *     --variant=V       after writing, damage the file: truncated (cut in
 *                       the middle of a record), bad-checksum (one digit of a
 *                       record changed), bad-version (version 2, with a valid
 *                       checksum)
 *
 * Site I is function `noisy_I` in gen/noisy.c line I: its live set jumps
 * at random each period between 0 and its own cap (noisy but bounded).
 * The planted site is `planted_leak` in gen/leak.c: it keeps one 48-byte
 * block more every period (and frees its temporary block within the period).
 * Decoys: site 3 (`warm_cache`) fills a cache during the first 10% of the
 * run and then stays flat; site 5 (`sawtooth`) grows and drops back to
 * zero four times. Site 7 is a pc origin in libc (no file). Site 11's
 * block is freed twice (two double-free records). Prints the number of
 * records written and the planted site's id.
 *
 * A test program: links the runtime archive (for profile.c), allocates
 * nothing through malloc (static arrays), and frees what stdio takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "profile.h"
#include "profile_format.h"

#define MAX_SITES 4096
#define MAX_BLOCKS 64   /* live blocks of one noisy site */
#define NFREE_SITES 10
#define SEC 1000000000ull

struct blk {
  uint64_t size, time, addr;
  uint32_t stack, tid;
  int sampled;
};

static struct blk live[MAX_SITES][MAX_BLOCKS];
static int nlive[MAX_SITES];
static struct blk leak_live[1 << 20];
static int nleak;
static uint64_t site_id[MAX_SITES], free_id[NFREE_SITES];
static struct md_profile_site_totals tot[MAX_SITES];
static struct md_profile_block snap[1 << 21];
static struct md_profile prof;

static int sites = 1000, periods = 60, snapshots = 6, leak = 637;
static uint64_t sample_bytes = 4096, seed = 1, records, next_addr = 0x10000;
static int no_totals;

static uint64_t rng_state;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double unif(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

/* Byte sampling as the runtime does it: a block of size s is sampled with
 * probability 1 - exp(-s/B). */
static int sampled(uint64_t size) {
  if (sample_bytes == 0)
    return 1;
  double u = unif();
  /* 1 - exp(-x) without libm: the reader must not depend on this. */
  double x = (double)size / (double)sample_bytes, term = 1, e = 1;
  for (int k = 1; k < 30; k++) {
    term *= -x / k;
    e += term;
  }
  return u < 1.0 - e;
}

static void check(bool ok, const char *what) {
  if (!ok) {
    perror(what);
    exit(1);
  }
}

static void alloc_block(int s, struct blk *b, uint64_t size, uint64_t t) {
  *b = (struct blk){size, t, next_addr, (uint32_t)(s + 2),
                    (uint32_t)(1000 + s % 4), sampled(size)};
  next_addr += (size + 31) & ~15ull;
  tot[s].allocs++;
  tot[s].bytes += size;
  tot[s].live_blocks++;
  tot[s].live_bytes += size;
  if (tot[s].live_bytes > tot[s].peak_bytes)
    tot[s].peak_bytes = tot[s].live_bytes;
}

static void free_block(int s, struct blk *b, uint64_t t, int fsite) {
  tot[s].frees++;
  tot[s].live_blocks--;
  tot[s].live_bytes -= b->size;
  if (b->sampled) {
    struct md_profile_free f = {.time = t, .site = site_id[s],
                                .size = b->size, .stack = b->stack,
                                .alloc_time = b->time,
                                .free_site = free_id[fsite],
                                .free_stack = (uint32_t)(5000 + fsite),
                                .tid = b->tid};
    check(md_profile_free(&prof, &f), "free record");
    records++;
  }
}

/* The site's cap: how many blocks it may hold, and their sizes. */
static int cap_of(int s) { return 4 + (int)(site_id[s] % (MAX_BLOCKS - 4)); }
static uint64_t size_of(int s) {
  return 16 + (rnd() % (64 + site_id[s] % 2048));
}

static void step_noisy(int s, uint64_t t) {
  int target = (int)(rnd() % (uint64_t)(cap_of(s) + 1));
  while (nlive[s] > target) {
    int k = (int)(rnd() % (uint64_t)nlive[s]);
    free_block(s, &live[s][k], t, s % NFREE_SITES);
    live[s][k] = live[s][--nlive[s]];
  }
  while (nlive[s] < target) {
    alloc_block(s, &live[s][nlive[s]], size_of(s), t);
    nlive[s]++;
  }
}

static void step(int s, int period, uint64_t t) {
  if (s == leak) {
    /* A temporary, freed within the period, by one of two free sites. */
    struct blk tmp;
    alloc_block(s, &tmp, 32, t);
    free_block(s, &tmp, t + SEC / 2, 3 + period % 2);
    alloc_block(s, &leak_live[nleak++], 48, t);
  } else if (s == 3) { /* warm_cache */
    if (period < periods / 10 && nlive[s] < MAX_BLOCKS - 8) {
      for (int k = 0; k < 6; k++, nlive[s]++)
        alloc_block(s, &live[s][nlive[s]], 512, t);
    } else if (nlive[s] > 0 && rnd() % 2) { /* refresh one entry */
      free_block(s, &live[s][0], t, 0);
      alloc_block(s, &live[s][0], 512, t);
    }
  } else if (s == 5) { /* sawtooth */
    int tooth = periods / 4 ? periods / 4 : 1;
    if (period % tooth == tooth - 1) {
      while (nlive[s] > 0)
        free_block(s, &live[s][--nlive[s]], t, 1);
    } else if (nlive[s] < MAX_BLOCKS) {
      alloc_block(s, &live[s][nlive[s]++], 256, t);
    }
  } else {
    step_noisy(s, t);
  }
}

static void write_snapshot(int number, uint64_t t) {
  size_t n = 0;
  for (int s = 0; s < sites; s++) {
    struct blk *v = s == leak ? leak_live : live[s];
    int count = s == leak ? nleak : nlive[s];
    for (int k = 0; k < count && n < sizeof(snap) / sizeof(snap[0]); k++)
      if (v[k].sampled)
        snap[n++] = (struct md_profile_block){site_id[s], v[k].size,
                                              v[k].time, v[k].addr,
                                              v[k].stack, v[k].tid};
  }
  char label[32];
  snprintf(label, sizeof(label), "snap %d", number);
  check(md_profile_snapshot(&prof, t, label, snap, n), "snapshot");
  records += 1 + n;
}

static void write_tables(void) {
  check(md_profile_sampling(&prof, 0, 1, sample_bytes), "sampling");
  check(md_profile_module(&prof, 0, "/usr/bin/profile_gen"), "module");
  check(md_profile_module(&prof, 1, "/lib/x86_64-linux-gnu/libc.so.6"),
        "module");
  records += 3;
  char fn[64];
  for (int s = 0; s < sites; s++) {
    struct md_profile_site d = {site_id[s], "malloc", "gen/noisy.c", fn, NULL,
                                (uint32_t)s, 3, -1, 0};
    snprintf(fn, sizeof(fn), "noisy_%d", s);
    if (s == leak) {
      d.file = "gen/leak.c";
      snprintf(fn, sizeof(fn), "planted_leak");
      d.op = "operator new";
      d.type = "struct session";
    } else if (s == 3) {
      snprintf(fn, sizeof(fn), "warm_cache");
    } else if (s == 5) {
      snprintf(fn, sizeof(fn), "sawtooth");
    } else if (s == 7) {
      snprintf(fn, sizeof(fn), "strdup");
      d = (struct md_profile_site){site_id[s], "malloc", NULL, "strdup", NULL,
                                   0, 0, 1, 0x9a1c0};
    }
    check(md_profile_site(&prof, &d), "site");
    /* Its stack: the site's function, its caller, main, libc. */
    struct md_profile_frame fr[4] = {{0, 0x1000 + 16 * (uint64_t)s},
                                     {0, 0x900 + 8 * (uint64_t)(s % 7)},
                                     {0, 0x800},
                                     {1, 0x27249}};
    check(md_profile_stack(&prof, (uint32_t)(s + 2), fr, 4), "stack");
    check(md_profile_symbol(&prof, 0, fr[0].offset, fn, 4), "symbol");
    records += 3;
  }
  for (int k = 0; k < 7; k++) {
    snprintf(fn, sizeof(fn), "caller_%d", k);
    check(md_profile_symbol(&prof, 0, 0x900 + 8 * (uint64_t)k, fn, 9), "sym");
  }
  check(md_profile_symbol(&prof, 0, 0x800, "main", 0x20), "symbol");
  check(md_profile_symbol(&prof, 1, 0x27249, "__libc_start_main", 0x89),
        "symbol");
  records += 9;
  for (int k = 0; k < NFREE_SITES; k++) {
    snprintf(fn, sizeof(fn), "release_%d", k);
    struct md_profile_site d = {free_id[k], "free", "gen/free.c", fn, NULL,
                                (uint32_t)(100 + k), 5, -1, 0};
    check(md_profile_site(&prof, &d), "free site");
    struct md_profile_frame fr[2] = {{0, 0x2000 + 16 * (uint64_t)k},
                                     {0, 0x800}};
    check(md_profile_stack(&prof, (uint32_t)(5000 + k), fr, 2), "stack");
    check(md_profile_symbol(&prof, 0, fr[0].offset, fn, 4), "symbol");
    records += 3;
  }
}

static void damage(const char *path, const char *variant) {
  FILE *f = fopen(path, "rb");
  check(f != NULL, path);
  static char buf[64 << 20];
  size_t n = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  if (strcmp(variant, "truncated") == 0) {
    /* Cut in the middle of the line at 90% of the file. */
    size_t at = n * 9 / 10;
    while (at < n && buf[at] != '\n')
      at++;
    n = at - 6;
  } else if (strcmp(variant, "bad-checksum") == 0) {
    /* Change one digit of the live bytes of the first C record past the
     * middle: the line still parses, its checksum no longer matches. */
    char *c = strstr(buf + n / 2, "\nC ");
    check(c != NULL, "no C record to damage");
    char *field = strchr(strchr(strchr(c + 3, ' ') + 1, ' ') + 1, ' ') + 1;
    *field = *field == '9' ? '1' : (char)(*field + 1);
  } else if (strcmp(variant, "bad-version") == 0) {
    char line[32];
    int len = snprintf(line, sizeof(line), "MDPROF 2");
    uint32_t crc = md_crc32c(line, (size_t)len);
    snprintf(line + len, sizeof(line) - (size_t)len, " %08x", crc);
    memcpy(buf, line, strlen(line));
  } else {
    fprintf(stderr, "profile_gen: unknown variant '%s'\n", variant);
    exit(2);
  }
  f = fopen(path, "wb");
  check(f != NULL && fwrite(buf, 1, n, f) == n && fclose(f) == 0, path);
}

int main(int argc, char **argv) {
  const char *out = NULL, *variant = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (sscanf(a, "--sites=%d", &sites) == 1 ||
        sscanf(a, "--periods=%d", &periods) == 1 ||
        sscanf(a, "--snapshots=%d", &snapshots) == 1 ||
        sscanf(a, "--leak=%d", &leak) == 1 ||
        sscanf(a, "--sample-bytes=%lu", &sample_bytes) == 1 ||
        sscanf(a, "--seed=%lu", &seed) == 1)
      continue;
    if (strcmp(a, "--no-totals") == 0)
      no_totals = 1;
    else if (strncmp(a, "--variant=", 10) == 0)
      variant = a + 10;
    else if (a[0] != '-')
      out = a;
    else {
      fprintf(stderr, "profile_gen: unknown option %s\n", a);
      return 2;
    }
  }
  if (!out || sites < 12 || sites > MAX_SITES || periods < 2 ||
      periods >= (int)(sizeof(leak_live) / sizeof(leak_live[0]))) {
    fprintf(stderr, "usage: profile_gen [--sites=12..%d] [--periods=N] "
                    "[--snapshots=N] [--leak=I] [--sample-bytes=B] "
                    "[--seed=N] [--no-totals] [--variant=V] OUT\n",
            MAX_SITES);
    return 2;
  }
  rng_state = seed;
  for (int s = 0; s < sites; s++)
    site_id[s] = rnd();
  for (int k = 0; k < NFREE_SITES; k++)
    free_id[k] = rnd();
  struct md_profile_header h = {4242, "/usr/bin/profile_gen",
                                "sample_bytes=4096", 0, 1700000000000000000ull};
  check(md_profile_open(&prof, out, &h), out);
  records = 2;
  write_tables();
  int every = snapshots > 0 ? periods / snapshots : 0;
  for (int period = 0; period < periods; period++) {
    uint64_t t = (uint64_t)period * SEC;
    for (int s = 0; s < sites; s++)
      step(s, period, t);
    if (period == periods / 2) { /* site 11's block freed twice */
      for (int k = 0; k < 2; k++) {
        struct md_profile_double_free d = {t + 1000 + (uint64_t)k, 0xdead0 + 16,
                                           40, site_id[11], free_id[1],
                                           free_id[2 + k],
                                           (uint32_t)(5002 + k), 1011};
        check(md_profile_double_free(&prof, &d), "double free");
      }
      records += 2;
    }
    uint64_t now = t + SEC - 1;
    struct md_profile_totals all = {now, 0, 0, 0, 0, 0};
    for (int s = 0; s < sites; s++) {
      tot[s].site = site_id[s];
      all.live_bytes += tot[s].live_bytes;
      all.live_blocks += tot[s].live_blocks;
      all.allocs += tot[s].allocs;
      all.frees += tot[s].frees;
      all.bytes += tot[s].bytes;
    }
    if (!no_totals) {
      check(md_profile_totals(&prof, &all, tot, (size_t)sites), "totals");
      records += 1 + (uint64_t)sites;
    }
    if (every && period % every == every - 1)
      write_snapshot(period / every, now);
  }
  check(md_profile_close(&prof, (uint64_t)periods * SEC), "close");
  records++;
  if (variant)
    damage(out, variant);
  printf("profile_gen: %lu records, planted leak site %016lx\n",
         (unsigned long)records,
         (unsigned long)(leak >= 0 && leak < sites ? site_id[leak] : 0));
  return 0;
}
