/* profile.h - the heap profile file (docs/profile-format.md) (profile.c). What
 * the rest of the runtime may call; nothing declared here allocates through
 * malloc.
 */
#ifndef MDEBUG_INTERNAL_PROFILE_H
#define MDEBUG_INTERNAL_PROFILE_H

#include "base.h"
#include "outfile.h"

/* One open profile. Calls on one profile must not overlap (the caller
 * serialises them); each call hands its records to the kernel before it
 * returns, so a crash loses at most the call in flight. Record times are
 * CLOCK_MONOTONIC ns, written relative to the header's start_ns. */
struct md_profile {
  struct md_out out; /* created by md_out_open; written through out.fd */
  bool failed;       /* a write failed: later calls write nothing */
  bool batch;        /* md_profile_batch: flush only when full or ended */
  uint64_t start;    /* header start_ns */
  uint64_t snapshots; /* snapshots written: the next one's number */
  size_t used;
  char buf[65536];
};
struct md_profile_header {
  int pid;
  const char *program, *options; /* options: the MDEBUG_OPTIONS in force */
  uint64_t start_ns;       /* CLOCK_MONOTONIC at start: time 0 of records */
  uint64_t start_unix_ns;  /* CLOCK_REALTIME at start, for display */
};
/* A site: instrumented (file/line/column/function, module -1) or a pc
 * origin (module index and offset in it; function if known). */
struct md_profile_site {
  uint64_t id;
  const char *op, *file, *function, *type; /* NULL or "": unknown */
  uint32_t line, column;
  int32_t module; /* -1: none */
  uint64_t offset;
};
struct md_profile_frame {
  uint32_t module;
  uint64_t offset; /* pc - the module's load address */
};
struct md_profile_limits { /* tracking rules and what they cost so far */
  uint64_t time;
  bool tracking;         /* sampling on (not switched off) */
  uint64_t min_size;     /* track_min_size, 0: none */
  uint64_t max_size;     /* track_max_size: larger blocks always tracked */
  uint64_t max_tracked;  /* the cap on live tracked blocks */
  uint64_t missed;       /* tracked blocks left out at the cap, so far */
  uint64_t lost;         /* frees of tracked blocks not recorded, so far */
};
struct md_profile_totals {
  uint64_t time, live_bytes, live_blocks, allocs, frees, bytes;
};
struct md_profile_site_totals {
  uint64_t site, live_blocks, live_bytes, allocs, frees, bytes, peak_bytes;
};
struct md_profile_block { /* a live sampled block */
  uint64_t site, size, time, addr; /* time: of its allocation */
  uint32_t stack, tid;
};
struct md_profile_free { /* the free of a sampled block */
  uint64_t time, site, size, alloc_time, free_site;
  uint32_t stack, free_stack, tid;
};
struct md_profile_double_free {
  uint64_t time, addr, size, site, free_site, second_site;
  uint32_t stack, tid; /* stack: of the second free */
};
/* "PREFIX.PID.mdprof" into buf; returns its length. */
size_t md_profile_path(char *buf, size_t size, const char *prefix, int pid)
    MD_HIDDEN;
/* Creates path (md_out_open's rules) and writes the magic line and header;
 * false with errno on failure. Every call below returns false once a write
 * has failed (errno from the failing write). */
bool md_profile_open(struct md_profile *p, const char *path,
                     const struct md_profile_header *h) MD_HIDDEN;
bool md_profile_sampling(struct md_profile *p, uint64_t time, uint64_t rate,
                         uint64_t bytes) MD_HIDDEN;
bool md_profile_limits(struct md_profile *p,
                       const struct md_profile_limits *l) MD_HIDDEN;
bool md_profile_module(struct md_profile *p, uint32_t module, const char *path)
    MD_HIDDEN;
/* on: the calls that follow keep their records in the buffer until it
 * fills; off: hands everything to the kernel (a batch is one call, as far
 * as a crash is concerned). */
bool md_profile_batch(struct md_profile *p, bool on) MD_HIDDEN;
bool md_profile_site(struct md_profile *p, const struct md_profile_site *s)
    MD_HIDDEN;
/* At most MD_PROFILE_FRAMES_MAX frames are written. */
bool md_profile_stack(struct md_profile *p, uint32_t id,
                      const struct md_profile_frame *frames, size_t n)
    MD_HIDDEN;
bool md_profile_symbol(struct md_profile *p, uint32_t module, uint64_t offset,
                       const char *function, uint64_t function_offset)
    MD_HIDDEN;
/* Process totals, then one record per site (n of them). */
bool md_profile_totals(struct md_profile *p, const struct md_profile_totals *t,
                       const struct md_profile_site_totals *sites, size_t n)
    MD_HIDDEN;
/* A snapshot of the live sampled blocks (numbered 0, 1, ... per file). */
bool md_profile_snapshot(struct md_profile *p, uint64_t time, const char *label,
                         const struct md_profile_block *blocks, size_t n)
    MD_HIDDEN;
bool md_profile_free(struct md_profile *p, const struct md_profile_free *f)
    MD_HIDDEN;
bool md_profile_double_free(struct md_profile *p,
                            const struct md_profile_double_free *d) MD_HIDDEN;
/* Writes the end record and closes; false if any write failed. */
bool md_profile_close(struct md_profile *p, uint64_t time) MD_HIDDEN;

#endif
