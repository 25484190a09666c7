/* profile.c - the heap profile writer: one PREFIX.PID.mdprof file per
 * process, a line-oriented text file whose every line is one record ending
 * in its own CRC-32C (docs/profile-format.md; the record kinds are listed
 * in profile.def). It takes plain structs and arrays from its caller and
 * knows nothing of the allocator.
 *
 * Records are formatted straight into the profile's own buffer and handed to
 * the kernel with write(2) when the buffer fills and before every call
 * returns, so what a call wrote survives a crash of the process after it;
 * a crash during a call can leave a partial last line, which the reader
 * detects (no newline, or a checksum that does not match).
 *
 * Never allocates, uses no stdio, takes no lock (the caller serialises calls
 * on one profile). The file is created by md_out_open, with the rules of
 * every file mdebug creates.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "outfile.h"
#include "print.h"
#include "profile.h"
#include "profile_format.h"

/* Cold code (the profile option only): base.h. */
#pragma clang section text = "mdebug_cold"

enum {
#define MD_PROFILE_RECORD(NAME, TAG, FIELDS) REC_##NAME,
#include "profile.def"
  REC_COUNT
};
static const char *const tags[REC_COUNT] = {
#define MD_PROFILE_RECORD(NAME, TAG, FIELDS) [REC_##NAME] = TAG,
#include "profile.def"
};

/* The longest line a call may add before the buffer must be flushed: four
 * escaped strings and twenty numbers, or a stack of the maximum depth. */
#define LINE_MAX_BYTES (4 * 3 * MD_PROFILE_STRING_MAX + 20 * 24 + 64)
_Static_assert(LINE_MAX_BYTES < sizeof(((struct md_profile *)0)->buf) / 2,
               "a line must fit the profile buffer");
_Static_assert(MD_PROFILE_FRAMES_MAX * 32 < LINE_MAX_BYTES,
               "a stack line must fit the line bound");

static void flush(struct md_profile *p) {
  size_t done = 0;
  while (done < p->used && !p->failed) {
    ssize_t n = write(p->out.fd, p->buf + done, p->used - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      p->failed = true;
    } else {
      done += (size_t)n;
    }
  }
  p->used = 0;
}

/* ---- one line: begin, fields, end ---------------------------------------- */

/* Not inlined: each record's writer calls them per field (inlined, with
 * put_dec's digit loop, the writers were 39 KB of code, resident in every
 * program; 11 KB now). A record is written per sampled event, not per
 * allocation. */

static MD_NOINLINE char *line_begin(struct md_profile *p, int kind) {
  if (sizeof(p->buf) - p->used < LINE_MAX_BYTES)
    flush(p);
  char *at = p->buf + p->used;
  size_t n = strlen(tags[kind]);
  memcpy(at, tags[kind], n);
  return at + n;
}

static MD_NOINLINE char *put_dec(char *at, uint64_t v) {
  char tmp[24];
  size_t n = 0;
  *at++ = ' ';
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *at++ = tmp[--n];
  return at;
}

static MD_NOINLINE char *put_hex_digits(char *at, uint64_t v) {
  char tmp[16];
  size_t n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  while (n)
    *at++ = tmp[--n];
  return at;
}

static MD_NOINLINE char *put_hex(char *at, uint64_t v) {
  *at++ = ' ';
  return put_hex_digits(at, v);
}

static char *put_str(char *at, const char *s) {
  *at++ = ' ';
  return at + md_profile_escape(at, s);
}

/* Appends " CRC\n" over the line started at p->buf + p->used. */
static void line_end(struct md_profile *p, char *at) {
  char *start = p->buf + p->used;
  uint32_t crc = md_crc32c(start, (size_t)(at - start));
  *at++ = ' ';
  for (int shift = 28; shift >= 0; shift -= 4)
    *at++ = "0123456789abcdef"[(crc >> shift) & 15];
  *at++ = '\n';
  p->used = (size_t)(at - p->buf);
}

/* Every public call ends here: its records go to the kernel now (in a
 * batch, when the buffer fills or the batch ends). */
static bool done(struct md_profile *p) {
  if (!p->batch)
    flush(p);
  return !p->failed;
}

bool md_profile_batch(struct md_profile *p, bool on) {
  p->batch = on;
  return done(p);
}

static uint64_t rel(const struct md_profile *p, uint64_t t) {
  return t > p->start ? t - p->start : 0;
}

/* ---- the records ---------------------------------------------------------- */

size_t md_profile_path(char *buf, size_t size, const char *prefix, int pid) {
  return md_format(buf, size, "%s.%d%s", prefix, pid, MD_PROFILE_SUFFIX);
}

/* " key=" then the value, for the header's key=value fields. */
static MD_NOINLINE char *put_key(char *at, const char *key) {
  *at++ = ' ';
  size_t n = strlen(key);
  memcpy(at, key, n);
  at += n;
  *at++ = '=';
  return at;
}

static MD_NOINLINE char *put_key_dec(char *at, const char *key,
                                     uint64_t v) {
  at = put_key(at, key);
  char *end = put_dec(at - 1, v); /* put_dec's space lands on the '=' */
  at[-1] = '=';
  return end;
}

static MD_NOINLINE char *put_key_str(char *at, const char *key,
                                     const char *s) {
  at = put_key(at, key);
  return at + md_profile_escape(at, s);
}

bool md_profile_open(struct md_profile *p, const char *path,
                     const struct md_profile_header *h) {
  p->failed = false;
  p->batch = false;
  p->used = 0;
  p->snapshots = 0;
  p->start = h->start_ns;
  if (!md_out_open(&p->out, path))
    return false;
  line_end(p, put_dec(line_begin(p, REC_MAGIC), MD_PROFILE_VERSION));
  char *at = line_begin(p, REC_HEADER);
  at = put_key_dec(at, "pid", (uint64_t)(h->pid > 0 ? h->pid : 0));
  at = put_key_dec(at, "start", h->start_unix_ns);
  at = put_key_str(at, "clock", "monotonic-ns");
  at = put_key_str(at, "program", h->program);
  at = put_key_str(at, "options", h->options);
  line_end(p, at);
  return done(p);
}

bool md_profile_sampling(struct md_profile *p, uint64_t time, uint64_t rate,
                         uint64_t bytes) {
  char *at = line_begin(p, REC_SAMPLING);
  at = put_dec(at, rel(p, time));
  at = put_dec(at, rate ? rate : 1);
  at = put_dec(at, bytes);
  line_end(p, at);
  return done(p);
}

bool md_profile_limits(struct md_profile *p,
                       const struct md_profile_limits *l) {
  char *at = line_begin(p, REC_LIMITS);
  at = put_dec(at, rel(p, l->time));
  at = put_dec(at, l->tracking ? 1 : 0);
  at = put_dec(at, l->min_size);
  at = put_dec(at, l->max_size);
  at = put_dec(at, l->max_tracked);
  at = put_dec(at, l->missed);
  at = put_dec(at, l->lost);
  line_end(p, at);
  return done(p);
}

bool md_profile_module(struct md_profile *p, uint32_t module,
                       const char *path) {
  char *at = line_begin(p, REC_MODULE);
  at = put_dec(at, module);
  at = put_str(at, path);
  line_end(p, at);
  return done(p);
}

bool md_profile_site(struct md_profile *p, const struct md_profile_site *s) {
  char *at = line_begin(p, REC_SITE);
  at = put_hex(at, s->id);
  at = put_str(at, s->op);
  at = put_str(at, s->file);
  at = put_dec(at, s->line);
  at = put_dec(at, s->column);
  at = put_str(at, s->function);
  at = put_str(at, s->type);
  if (s->module < 0) {
    memcpy(at, " - 0", 4);
    at += 4;
  } else {
    at = put_dec(at, (uint64_t)s->module);
    at = put_hex(at, s->offset);
  }
  line_end(p, at);
  return done(p);
}

bool md_profile_stack(struct md_profile *p, uint32_t id,
                      const struct md_profile_frame *frames, size_t n) {
  if (n > MD_PROFILE_FRAMES_MAX)
    n = MD_PROFILE_FRAMES_MAX;
  char *at = line_begin(p, REC_STACK);
  at = put_dec(at, id);
  for (size_t i = 0; i < n; i++) {
    at = put_dec(at, frames[i].module);
    *at++ = ':';
    at = put_hex_digits(at, frames[i].offset);
  }
  line_end(p, at);
  return done(p);
}

bool md_profile_symbol(struct md_profile *p, uint32_t module, uint64_t offset,
                       const char *function, uint64_t function_offset) {
  char *at = line_begin(p, REC_SYMBOL);
  at = put_dec(at, module);
  at = put_hex(at, offset);
  at = put_str(at, function);
  at = put_hex(at, function_offset);
  line_end(p, at);
  return done(p);
}

bool md_profile_totals(struct md_profile *p, const struct md_profile_totals *t,
                       const struct md_profile_site_totals *sites, size_t n) {
  uint64_t time = rel(p, t->time);
  char *at = line_begin(p, REC_TOTALS);
  at = put_dec(at, time);
  at = put_dec(at, t->live_bytes);
  at = put_dec(at, t->live_blocks);
  at = put_dec(at, t->allocs);
  at = put_dec(at, t->frees);
  at = put_dec(at, t->bytes);
  at = put_dec(at, n);
  line_end(p, at);
  for (size_t i = 0; i < n; i++) {
    const struct md_profile_site_totals *s = &sites[i];
    at = line_begin(p, REC_SITE_TOTALS);
    at = put_dec(at, time);
    at = put_hex(at, s->site);
    at = put_dec(at, s->live_blocks);
    at = put_dec(at, s->live_bytes);
    at = put_dec(at, s->allocs);
    at = put_dec(at, s->frees);
    at = put_dec(at, s->bytes);
    at = put_dec(at, s->peak_bytes);
    line_end(p, at);
  }
  return done(p);
}

bool md_profile_snapshot(struct md_profile *p, uint64_t time, const char *label,
                         const struct md_profile_block *blocks, size_t n) {
  uint64_t number = p->snapshots++;
  char *at = line_begin(p, REC_SNAPSHOT);
  at = put_dec(at, number);
  at = put_dec(at, rel(p, time));
  at = put_dec(at, n);
  at = put_str(at, label);
  line_end(p, at);
  for (size_t i = 0; i < n; i++) {
    const struct md_profile_block *b = &blocks[i];
    at = line_begin(p, REC_BLOCK);
    at = put_dec(at, number);
    at = put_hex(at, b->site);
    at = put_dec(at, b->size);
    at = put_dec(at, b->stack);
    at = put_dec(at, rel(p, b->time));
    at = put_dec(at, b->tid);
    at = put_hex(at, b->addr);
    line_end(p, at);
  }
  return done(p);
}

bool md_profile_free(struct md_profile *p, const struct md_profile_free *f) {
  char *at = line_begin(p, REC_FREE);
  at = put_dec(at, rel(p, f->time));
  at = put_hex(at, f->site);
  at = put_dec(at, f->size);
  at = put_dec(at, f->stack);
  at = put_dec(at, rel(p, f->alloc_time));
  at = put_hex(at, f->free_site);
  at = put_dec(at, f->free_stack);
  at = put_dec(at, f->tid);
  line_end(p, at);
  return done(p);
}

bool md_profile_double_free(struct md_profile *p,
                            const struct md_profile_double_free *d) {
  char *at = line_begin(p, REC_DOUBLE_FREE);
  at = put_dec(at, rel(p, d->time));
  at = put_hex(at, d->addr);
  at = put_dec(at, d->size);
  at = put_hex(at, d->site);
  at = put_hex(at, d->free_site);
  at = put_hex(at, d->second_site);
  at = put_dec(at, d->stack);
  at = put_dec(at, d->tid);
  line_end(p, at);
  return done(p);
}

bool md_profile_close(struct md_profile *p, uint64_t time) {
  p->batch = false;
  line_end(p, put_dec(line_begin(p, REC_END), rel(p, time)));
  flush(p);
  int err = p->failed ? errno : 0;
  bool ok = md_out_close(&p->out) && !p->failed;
  if (err)
    errno = err;
  return ok;
}
