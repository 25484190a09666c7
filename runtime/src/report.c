/* report.c - the only writer of user-visible text: error reports, notes, the
 * summary line, and the exit status they imply.
 *
 * Never allocates. Lines go out through the sink (log.c): reports from
 * different threads never interleave (its lock); a report started while the
 * same thread is already writing (a fault in our own printing, a signal
 * handler) is dropped, not deadlocked. Decides in one place whether to go
 * on or abort after an error.
 *
 * With json_path, each report is also written as one JSON object a line
 * to PATH.PID.json (a leak report as one object per leak group), built
 * from the same calls as the text: the kind from begin, the sites from
 * md_report_origin/md_report_source (structured: file, line, column,
 * function, op, id), stacks and evidence from the lines (fixed shapes:
 * "Backtrace ...:" then "#NN" frames; "+++ ALLOCATION <p> SIZE <n>"), and
 * every line as text. The object is assembled in static buffers under
 * the sink's lock (never allocates) and written at md_report_end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "log.h"
#include "options.h"
#include "outfile.h"
#include "platform.h"
#include "print.h"
#include "report.h"
#include "site.h"
#include "stacks.h"

/* Cold code (reports only; md_report_summary, which every run asks, is
 * not): base.h. */
#pragma clang section text = "mdebug_cold"

#define LOG_DIVIDER "*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***"

static const char *const titles[] = {
#define MD_ERROR(NAME, TITLE) TITLE,
#include "errors.def"
};

static const char *const kind_ids[] = {
#define MD_ERROR(NAME, TITLE) #NAME,
#include "errors.def"
};

static size_t error_counts[MD_ERR_COUNT];
static size_t leaked_blocks, leaked_bytes;
static size_t leaked_maps, leaked_map_bytes; /* mappings (mmap.c) */
static enum md_error current;
static bool fatal_report, fatal_unlocked; /* md_report_begin_fatal's */

static void flush_evidence(void);
static void json_begin(enum md_error kind);
static void json_line(const char *line, size_t n);
static void json_site(const char *role, unsigned op, md_origin_t origin,
                      const char *file, const char *function, uint32_t line,
                      uint32_t column);
static void json_end(void);

/* Every line of every report goes through here: into the JSON object when
 * one is being built, and to the sink (log.c), which escapes what must be. */
static void write_line(const char *fmt, va_list ap) {
  char line[1024];
  size_t n = md_vformat(line, sizeof(line) - 1, fmt, ap);
  json_line(line, n);
  md_sink_write(line, n);
}

static void write_linef(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  write_line(fmt, ap);
  va_end(ap);
}

/* A report happens inside free, which must keep errno: begin saves it, end
 * gives it back (under the report lock). */
static int report_errno;

/* Reports that count as errors (and may abort); leaks are counted apart
 * (md_report_add_leaks), and a mapping leak note (leak.c, without
 * mapping_leaks_fail) is not counted at all. */
static bool counted(enum md_error kind) {
  return kind != MD_ERR_LEAK && kind != MD_ERR_MAPPING_LEAK;
}

/* The divider and header of a report ("NOTE" for a mapping leak note);
 * under the sink's lock. */
static void header(enum md_error kind) {
  current = kind;
  write_linef("%s", LOG_DIVIDER);
  json_begin(kind);
  write_linef("mdebug: %s: %s in %s (pid %d, tid %d)",
              kind == MD_ERR_MAPPING_LEAK ? "NOTE" : "ERROR", titles[kind],
              md_progname(), md_getpid(), md_gettid());
}

bool md_report_begin(enum md_error kind) {
  int saved_errno = errno;
  if (!md_sink_enter())
    return false;
  report_errno = saved_errno;
  header(kind);
  return true;
}

/* A thread that dies of a signal may have held the sink's lock when it
 * faulted (it is not inside a report: the sink says that), or another
 * thread may hold it and never run again: after a few tries, write anyway. */
bool md_report_begin_fatal(enum md_error kind) {
  int saved_errno = errno;
  int locked = md_sink_enter_fatal();
  if (locked < 0)
    return false;
  fatal_report = true;
  fatal_unlocked = !locked;
  report_errno = saved_errno;
  header(kind);
  return true;
}

void md_report_line(const char *fmt, ...) {
  flush_evidence();
  va_list ap;
  va_start(ap, fmt);
  write_line(fmt, ap);
  va_end(ap);
}

/* Evidence lines of the current report: at most MAX_EVIDENCE, however many
 * calls make them; the rest are counted in one line before whatever comes
 * next. Under the sink's lock. */
enum { MAX_EVIDENCE = 64 };
static size_t evidence_shown, evidence_hidden;

static void flush_evidence(void) {
  if (evidence_hidden)
    write_linef("  ... %zu more corrupted bytes", evidence_hidden);
  evidence_hidden = 0;
}

size_t md_report_evidence(const unsigned char *bytes, size_t n, long index0,
                          unsigned char expected) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (bytes[i] == expected)
      continue;
    bad++;
    if (evidence_shown < MAX_EVIDENCE) {
      evidence_shown++;
      write_linef("  allocation[%ld] = 0x%02x (expected 0x%02x)",
                  index0 + (long)i, bytes[i], expected);
    } else {
      evidence_hidden++;
    }
  }
  return bad;
}

void md_report_origin(const char *what, unsigned op, md_origin_t origin) {
  char where[512];
  flush_evidence();
  md_origin_describe(where, sizeof(where), origin);
  json_site(what, op, origin, NULL, NULL, 0, 0);
  write_linef("  %s by %s at %s", what, md_op_name(op), where);
}

void md_report_source(const char *what, const char *file,
                      const char *function, uint32_t line, uint32_t column) {
  char where[512];
  flush_evidence();
  md_source_describe(where, sizeof(where), file, function, line, column);
  json_site(what, 0, 0, file, function, line, column);
  write_linef("  %s at %s", what, where);
}

void md_report_end(void) {
  enum md_error kind = current;
  flush_evidence();
  evidence_shown = 0;
  json_end();
  write_linef("%s", LOG_DIVIDER);
  if (counted(kind))
    error_counts[kind]++;
  int saved_errno = report_errno;
  bool fatal = fatal_report;
  bool locked = !fatal_unlocked;
  fatal_report = fatal_unlocked = false;
  md_sink_leave(locked);
  errno = saved_errno;
  /* As in malloc debug, leaks never abort; nor does a fatal signal's report
   * (the signal ends the process, with its own status). */
  if (md_opt.abort_on_error && counted(kind) && !fatal) {
    md_log("mdebug: abort_on_error: aborting");
    abort();
  }
}

void md_report_add_leaks(size_t blocks, size_t bytes) {
  md_sink_lock();
  leaked_blocks += blocks;
  leaked_bytes += bytes;
  md_sink_unlock();
}

void md_report_add_leaked_mappings(size_t maps, size_t bytes) {
  md_sink_lock();
  leaked_maps += maps;
  leaked_map_bytes += bytes;
  md_sink_unlock();
}

/* ", N bytes leaked in K blocks" (", ... in K blocks and M mappings", ",
 * ... in M mappings") into line. */
static size_t format_leaks(char *line, size_t size) {
  size_t bytes = leaked_bytes + leaked_map_bytes;
  size_t n = md_format(line, size, ", %zu byte%s leaked in", bytes,
                       bytes == 1 ? "" : "s");
  if (leaked_blocks || !leaked_maps)
    n += md_format(line + n, size - n, " %zu block%s", leaked_blocks,
                   leaked_blocks == 1 ? "" : "s");
  if (leaked_maps)
    n += md_format(line + n, size - n, "%s %zu mapping%s",
                   leaked_blocks ? " and" : "", leaked_maps,
                   leaked_maps == 1 ? "" : "s");
  return n;
}

/* "mdebug: SUMMARY: N errors (k of each kind)" into line; returns its
 * length. */
static size_t format_errors(char *line, size_t size, size_t errors) {
  size_t n = md_format(line, size, "mdebug: SUMMARY: %zu error%s", errors,
                       errors == 1 ? "" : "s");
  const char *sep = " (";
  for (int k = 0; k < MD_ERR_COUNT; k++) {
    if (!error_counts[k])
      continue;
    n += md_format(line + n, size - n, "%s%zu %s", sep, error_counts[k],
                   titles[k]);
    sep = ", ";
  }
  if (errors)
    n += md_format(line + n, size - n, ")");
  return n;
}

MD_HOT_IN_COLD_FILE int md_report_summary(void) {
  char line[1024];
  size_t n = 0, errors = 0;
  md_sink_lock();
  for (int k = 0; k < MD_ERR_COUNT; k++)
    errors += error_counts[k];
  if (errors == 0 && leaked_blocks == 0 && leaked_maps == 0) {
    md_sink_unlock();
    return -1;
  }
  n += format_errors(line, sizeof(line), errors);
  n += format_leaks(line + n, sizeof(line) - n);
  write_linef("%s", line);
  md_sink_unlock();
  return md_opt.exitcode ? (int)md_opt.exitcode : -1;
}

/* A thread that is inside a report holds the lock; it is dying, so write
 * over its report. Another thread may hold it and never run again: after a
 * few tries, write anyway (a line may interleave; nothing waits). */
void md_report_fatal_summary(const char *signal, const char *what) {
  bool locked = md_sink_lock_dying();
  size_t errors = 0;
  for (int k = 0; k < MD_ERR_COUNT; k++)
    errors += error_counts[k];
  char line[1024];
  size_t n = format_errors(line, sizeof(line), errors);
  if (leaked_blocks || leaked_maps)
    n += format_leaks(line + n, sizeof(line) - n);
  md_format(line + n, sizeof(line) - n,
            ", then %s (%s); leaks at exit not checked", signal, what);
  write_linef("%s", line);
  if (locked)
    md_sink_unlock();
}

/* ---- JSON ------------------------------------------------------------------
 * Under the sink's lock, like the text. A part that does not fit its buffer is
 * cut at a value boundary and the object says "truncated": true. */

struct jbuf {
  char *b;
  size_t size, len;
  bool full;
};

static char js_sites[8192], js_stacks[32768], js_text[16384], js_out[65536];
static struct {
  bool on;                /* a report is being recorded */
  enum md_error kind;
  struct jbuf sites, stacks, text;
  int nsites, nstacks, nframes, nlines;
  bool in_stack;
  char message[1024];     /* a leak group's header line */
  char last[1024];        /* the line before, for leak groups */
  uintptr_t address;
  size_t size;
  bool has_address, has_size, group;
  size_t bytes, blocks;
  const char *leak_kind;
  int fd, pid;            /* PATH.PID.json; -1: not open */
} js = {.fd = -1};

static void jb_reset(struct jbuf *j, char *b, size_t size) {
  j->b = b;
  j->size = size;
  j->len = 0;
  j->full = false;
}

/* Appends n bytes, or nothing (and marks the buffer full) if they do not
 * fit with room kept for the closing brackets. */
static bool jb_put(struct jbuf *j, const char *s, size_t n) {
  if (j->full || j->len + n + 8 > j->size) {
    j->full = true;
    return false;
  }
  memcpy(j->b + j->len, s, n);
  j->len += n;
  return true;
}

static void jb_printf(struct jbuf *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void jb_printf(struct jbuf *j, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  size_t n = md_vformat(tmp, sizeof(tmp), fmt, ap);
  va_end(ap);
  jb_put(j, tmp, n);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  size_t k = s[0] >= 0xf0 && s[0] <= 0xf4   ? 4
             : s[0] >= 0xe0 && s[0] < 0xf0  ? 3
             : s[0] >= 0xc2 && s[0] < 0xe0  ? 2
                                            : 0;
  if (k == 0 || k > n)
    return 0;
  for (size_t i = 1; i < k; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  return k;
}

/* Appends pre, s[0..n) as a JSON string, and post, all or nothing (so a
 * value cut for room never leaves a dangling comma): quotes, backslashes
 * and control bytes escaped; bytes that are not UTF-8 become U+FFFD (JSON
 * text is UTF-8). */
static bool jb_value(struct jbuf *j, const char *pre, const char *s, size_t n,
                     const char *post) {
  char tmp[2048];
  size_t t = md_format(tmp, sizeof(tmp), "%s\"", pre);
  for (size_t i = 0; i < n && t + 16 + strlen(post) < sizeof(tmp); i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      tmp[t++] = '\\';
      tmp[t++] = (char)c;
    } else if (c < 0x20 || c == 0x7f) {
      t += md_format(tmp + t, sizeof(tmp) - t, "\\u%04x", c);
    } else if (c < 0x80) {
      tmp[t++] = (char)c;
    } else {
      size_t k = utf8_len((const unsigned char *)s + i, n - i);
      if (k == 0) {
        t += md_format(tmp + t, sizeof(tmp) - t, "\\ufffd");
      } else {
        memcpy(tmp + t, s + i, k);
        t += k;
        i += k - 1;
      }
    }
  }
  t += md_format(tmp + t, sizeof(tmp) - t, "\"%s", post);
  return jb_put(j, tmp, t);
}

static void jb_str(struct jbuf *j, const char *s, size_t n) {
  jb_value(j, "", s, n, "");
}

/* Closing brackets: written even when the buffer is full (jb_put keeps
 * room for them). */
static void jb_close(struct jbuf *j, const char *s) {
  size_t n = strlen(s);
  if (j->len + n <= j->size) {
    memcpy(j->b + j->len, s, n);
    j->len += n;
  }
}

static void jb_cstr(struct jbuf *j, const char *s) {
  if (s)
    jb_str(j, s, strlen(s));
  else
    jb_put(j, "null", 4);
}

static void json_reset_object(void) {
  jb_reset(&js.sites, js_sites, sizeof(js_sites));
  jb_reset(&js.stacks, js_stacks, sizeof(js_stacks));
  jb_reset(&js.text, js_text, sizeof(js_text));
  js.nsites = js.nstacks = js.nframes = js.nlines = 0;
  js.in_stack = js.has_address = js.has_size = js.group = false;
  js.message[0] = '\0';
  js.bytes = js.blocks = 0;
  js.leak_kind = NULL;
}

static void json_begin(enum md_error kind) {
  js.on = md_opt.json_path[0] != '\0';
  js.kind = kind;
  js.last[0] = '\0';
  json_reset_object();
}

/* The JSON file, opened on first use (again in a forked child) under
 * md_file_open's rules; -1 when it cannot be (said once on stderr). */
static int json_fd(void) {
  int pid = md_getpid();
  if (js.fd >= 0 && js.pid == pid)
    return js.fd;
  if (js.fd >= 0)
    close(js.fd);
  js.fd = -1;
  char path[sizeof(md_opt.json_path) + 32], why[MD_PATH_MAX * 2 + 128];
  md_format(path, sizeof(path), "%s.%d.json", md_opt.json_path, pid);
  js.fd = md_file_open(path, true, why, sizeof(why));
  js.pid = pid;
  if (js.fd < 0) {
    char shown[4 * sizeof(path)], line[sizeof(why) + sizeof(shown) + 64];
    md_escape(shown, sizeof(shown), path, strlen(path));
    size_t n = why[0] ? md_format(line, sizeof(line),
                                  "mdebug: %s; no JSON reports\n", why)
                      : md_format(line, sizeof(line),
                                  "mdebug: cannot open json_path file %s: "
                                  "%s; no JSON reports\n",
                                  shown, strerror(errno));
    md_write_all(2, line, n);
    md_opt.json_path[0] = '\0';
  } else {
    js.fd = md_fd_move_high(js.fd);
  }
  return js.fd;
}

/* Writes the object built so far (a whole report, or one leak group). */
static void json_flush(void) {
  struct jbuf o;
  jb_reset(&o, js_out, sizeof(js_out));
  bool cut = js.sites.full || js.stacks.full || js.text.full;
  char id[64];
  size_t k = 0;
  for (const char *c = kind_ids[js.kind]; *c && k + 1 < sizeof(id); c++)
    id[k++] = *c >= 'A' && *c <= 'Z' ? (char)(*c + 32) : *c;
  id[k] = '\0';
  jb_printf(&o, "{\"mdebug\":1,\"kind\":\"%s\",\"title\":", id);
  jb_cstr(&o, titles[js.kind]);
  jb_printf(&o, ",\"pid\":%d,\"tid\":%d,\"program\":", md_getpid(),
            md_gettid());
  jb_cstr(&o, md_progname());
  if (js.has_address)
    jb_printf(&o, ",\"address\":\"0x%lx\"", (unsigned long)js.address);
  if (js.has_size)
    jb_printf(&o, ",\"size\":%zu", js.size);
  if (js.group) {
    jb_printf(&o, ",\"leak\":\"%s\",\"bytes\":%zu,\"blocks\":%zu",
              js.leak_kind, js.bytes, js.blocks);
    jb_put(&o, ",\"message\":", 11);
    jb_cstr(&o, js.message);
  }
  jb_put(&o, ",\"sites\":[", 10);
  jb_put(&o, js.sites.b, js.sites.len);
  jb_put(&o, "],\"stacks\":[", 12);
  jb_put(&o, js.stacks.b, js.stacks.len);
  if (js.in_stack)
    jb_put(&o, "]}", 2);
  js.in_stack = false;
  jb_put(&o, "],\"text\":[", 10);
  jb_put(&o, js.text.b, js.text.len);
  jb_put(&o, "]", 1);
  if (cut || o.full)
    jb_put(&o, ",\"truncated\":true", 17);
  o.full = false; /* room for the end was kept */
  jb_put(&o, "}\n", 2);
  int fd = json_fd();
  if (fd < 0)
    return;
  int err = md_write_fully(fd, o.b, o.len);
  if (err) {
    char line[256];
    size_t n = md_format(line, sizeof(line),
                         "mdebug: cannot write the json_path file: %s; no "
                         "more JSON reports\n", strerror(err));
    md_write_all(2, line, n);
    close(js.fd);
    js.fd = -1;
    md_opt.json_path[0] = '\0';
  }
}

static void json_end(void) {
  if (!js.on)
    return;
  /* A leak report's objects are its groups (each written as the next
   * begins); its first line alone (the totals) is no object. */
  if (js.kind != MD_ERR_LEAK || js.group)
    json_flush();
  js.on = false;
}

/* Reads a hex number (after an optional "0x") or a decimal one at *s, and
 * moves *s past it. */
static bool scan_number(const char **s, int base, uintptr_t *v) {
  const char *c = *s;
  if (base == 16 && c[0] == '0' && c[1] == 'x')
    c += 2;
  uintptr_t x = 0;
  const char *start = c;
  for (;; c++) {
    int d = *c >= '0' && *c <= '9'                 ? *c - '0'
            : base == 16 && *c >= 'a' && *c <= 'f' ? *c - 'a' + 10
                                                   : -1;
    if (d < 0)
      break;
    x = x * (uintptr_t)base + (uintptr_t)d;
  }
  if (c == start)
    return false;
  *v = x;
  *s = c;
  return true;
}

static bool starts_with(const char *s, const char *word) {
  return strncmp(s, word, strlen(word)) == 0;
}

/* The evidence in the fixed first lines: "+++ ALLOCATION <p> SIZE <n> ...",
 * "+++ INVALID READ OF SIZE <n> AT <p>". */
static void json_evidence(const char *line) {
  uintptr_t v;
  const char *c;
  if (starts_with(line, "+++ ALLOCATION ")) {
    c = line + 15;
    if (!js.has_address && scan_number(&c, 16, &v)) {
      js.address = v;
      js.has_address = true;
    }
    if (!js.has_size && starts_with(c, " SIZE ")) {
      c += 6;
      if (scan_number(&c, 10, &v)) {
        js.size = v;
        js.has_size = true;
      }
    }
  } else if (starts_with(line, "+++ INVALID ")) {
    if ((c = strstr(line, " SIZE ")) != NULL) {
      c += 6;
      if (scan_number(&c, 10, &v)) {
        js.size = v;
        js.has_size = true;
      }
    }
    if ((c = strstr(line, " AT ")) != NULL) {
      c += 4;
      if (scan_number(&c, 16, &v)) {
        js.address = v;
        js.has_address = true;
      }
    }
  }
}

static void json_line(const char *line, size_t n) {
  if (!js.on)
    return;
  if (jb_value(&js.text, js.nlines ? "," : "", line, n, ""))
    js.nlines++;
  const char *c = line;
  while (*c == ' ')
    c++;
  if (*c == '#' && js.in_stack) { /* a frame of the stack being listed */
    if (jb_value(&js.stacks, js.nframes ? "," : "", c,
                 n - (size_t)(c - line), ""))
      js.nframes++;
  } else if (starts_with(line, "Backtrace") && n && line[n - 1] == ':') {
    if (js.in_stack)
      jb_close(&js.stacks, "]}");
    js.in_stack = jb_value(&js.stacks, js.nstacks ? ",{\"title\":" : "{\"title\":",
                           line, n - 1, ",\"frames\":[");
    js.nstacks += js.in_stack;
    js.nframes = 0;
  } else {
    if (js.in_stack)
      jb_close(&js.stacks, "]}");
    js.in_stack = false;
    json_evidence(line);
  }
  size_t k = n < sizeof(js.last) - 1 ? n : sizeof(js.last) - 1;
  memcpy(js.last, line, k);
  js.last[k] = '\0';
}

/* A leak group starts at its "allocated" site; the line before it says
 * "Direct leak of N bytes in K blocks:" (or "N bytes in K blocks:" for
 * leak_track). */
static void json_leak_group(void) {
  if (js.group)
    json_flush();
  char header[sizeof(js.last)];
  memcpy(header, js.last, sizeof(header));
  json_reset_object();
  js.group = true;
  memcpy(js.message, header, sizeof(js.message));
  js.leak_kind = starts_with(header, "Direct")     ? "direct"
                 : starts_with(header, "Indirect") ? "indirect"
                                                   : "live";
  const char *c = header;
  uintptr_t v;
  while (*c && (*c < '0' || *c > '9'))
    c++;
  if (scan_number(&c, 10, &v))
    js.bytes = v;
  if ((c = strstr(c, " in ")) != NULL) {
    c += 4;
    if (scan_number(&c, 10, &v))
      js.blocks = v;
  }
  jb_str(&js.text, header, strlen(header)); /* the group's first line */
  js.nlines = 1;
}

static void json_site(const char *role, unsigned op, md_origin_t origin,
                      const char *file, const char *function, uint32_t line,
                      uint32_t column) {
  if (!js.on)
    return;
  if (js.kind == MD_ERR_LEAK && strcmp(role, "allocated") == 0)
    json_leak_group();
  /* Built whole, then appended whole. */
  char tmp[4096];
  struct jbuf site, *j = &site;
  jb_reset(j, tmp, sizeof(tmp));
  jb_value(j, js.nsites ? ",{\"role\":" : "{\"role\":", role, strlen(role), "");
  if (origin) {
    jb_put(j, ",\"op\":", 6);
    jb_cstr(j, md_op_name(op));
  }
  if (origin && md_origin_is_pc(origin)) {
    uintptr_t pc = origin & ~MD_ORIGIN_PC_BIT;
    struct md_symbol sym;
    if (md_symbolize(pc - 1, &sym)) {
      jb_put(j, ",\"module\":", 10);
      jb_cstr(j, sym.module);
      jb_printf(j, ",\"offset\":\"0x%lx\"", (unsigned long)sym.rel_pc + 1);
      if (sym.function) {
        jb_put(j, ",\"function\":", 12);
        jb_cstr(j, sym.function);
      }
    } else {
      jb_printf(j, ",\"pc\":\"0x%lx\"", (unsigned long)pc);
    }
  } else {
    const struct mdebug_site *s = (const struct mdebug_site *)origin;
    if (s) {
      file = s->file;
      function = s->function;
      line = s->line;
      column = s->column;
      jb_printf(j, ",\"id\":\"%016lx\"", (unsigned long)s->id);
    }
    if (file) {
      jb_put(j, ",\"file\":", 8);
      jb_cstr(j, file);
      jb_printf(j, ",\"line\":%u,\"column\":%u", line, column);
      jb_put(j, ",\"function\":", 12);
      jb_cstr(j, function);
      if (s && s->type) {
        jb_put(j, ",\"type\":", 8);
        jb_cstr(j, s->type);
      }
    }
  }
  if (jb_put(j, "}", 1) && !j->full && jb_put(&js.sites, site.b, site.len))
    js.nsites++;
}
