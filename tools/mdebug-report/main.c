/* main.c - mdebug-report's command line: options, reading each input
 * (recognised by its first line: a .mdprof profile, an Android heap dump, a
 * record_allocs file), and printing the chosen reports in the chosen format.
 *
 * mdebug's error reports (a log_path file, a captured stderr, a json_path
 * file) are read too, and with them, or with --format=json/sarif or
 * --baseline, every input goes into one table of errors and leaks by site
 * (findings.c). A directory stands for the files under it.
 *
 * Exit status: 0; 1 when an input was damaged, unreadable or not
 * recognised (what was valid is still reported); 2 for a bad command line;
 * 3 when --baseline was given and some error or leak is not in it.
 * Messages about inputs go to stderr and name the file, the line and the
 * byte offset; an option error names the option.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

struct options opt;
const char *const report_names[R_COUNT] = {
#define REPORT(NAME, ENUM, TITLE) NAME,
#include "reports.def"
};
const char *const report_titles[R_COUNT] = {
#define REPORT(NAME, ENUM, TITLE) TITLE,
#include "reports.def"
};
static const enum report_kind default_reports[] = {
    R_GROWTH, R_ALLOC_POINTS, R_DEALLOC_POINTS, R_TIME_SLICES, R_DOUBLE_FREES};

static int status;

static const char usage[] =
    "usage: mdebug-report [options] FILE...\n"
    "Reads heap profiles (.mdprof), heap dumps (Android Native Heap Dump "
    "v1.2)\nand record_allocs files written by mdebug, and reports on them.\n"
    "Reads mdebug's error reports too (log_path files, captured stderr, "
    "json_path\nfiles): those, and the double frees of profiles, make one "
    "table of errors\nand leaks by site, with the number of processes that "
    "hit each. A directory\nstands for every file under it.\n"
    "\n"
    "  --report=NAME,...    reports, in this order: growth, alloc-points,\n"
    "                       dealloc-points, allocations, periodic, "
    "time-slices,\n"
    "                       double-frees, diff, plot, or all (default: growth,\n"
    "                       alloc-points, dealloc-points, time-slices,\n"
    "                       double-frees; plus diff with --diff, plot with "
    "--plot)\n"
    "  --format=FORMAT      text (default), csv, folded (flamegraph.pl, "
    "speedscope)\n"
    "                       or html (one self-contained file with charts);\n"
    "                       json or sarif (SARIF 2.1.0): the errors and leaks "
    "by site\n"
    "  --baseline=FILE      an earlier --format=json output: mark what is not "
    "in it,\n"
    "                       and exit with status 3 if anything is not\n"
    "  -o FILE, --output=FILE  write there instead of stdout\n"
    "  --start=TIME, --stop=TIME  only records in this window (StartTime, "
    "StopTime);\n"
    "                       TIME from the profile's start: 2s, 150ms, 10us, "
    "1.5\n"
    "  --function=PAT, --file=PAT, --module=PAT  only sites matching (any of "
    "them)\n"
    "  --remove-function=PAT, --remove-file=PAT, --remove-module=PAT  "
    "leave out\n"
    "                       PAT: substring, '*' wildcard, '^' '$' anchors\n"
    "  --limit=N            at most N rows a report (default 25; 0: all)\n"
    "  --min-percent=P      leave out rows under P% of the report's bytes\n"
    "  --warmup=TIME|P%     growth ignores this start of the run (default "
    "10%)\n"
    "  --show-zero-growth   growth lists sites that did not grow too "
    "(ShowZeroGrowthIds)\n"
    "  --time-slice=TIME    time-slice length (TimeSliceDuration; default: "
    "the span\n"
    "                       divided by --max-slices)\n"
    "  --max-slices=N       at most N time slices (MaxTimeSlices; default "
    "10)\n"
    "  --snapshot=SEL       snapshot for allocations, alloc-points, folded "
    "(default\n"
    "                       last); SEL: its label, #NUMBER, first, last\n"
    "  --diff=A,B           diff snapshot A against B (with two files: A of "
    "the first,\n"
    "                       B of the second; default first,last or "
    "last,last)\n"
    "  --plot=SITE_ID       chart (html) or list the live bytes of this site "
    "(hex id);\n"
    "                       may be repeated (PlotAllocation)\n"
    "  --top=N              sites stacked in the outstanding-bytes chart "
    "(default 8)\n"
    "  --symbolizer=PATH    llvm-symbolizer to name frames' functions and "
    "source lines\n"
    "                       (default: the one of the LLVM mdebug was built "
    "with, else PATH's)\n"
    "  --no-symbolize       frames keep the names the file has\n"
    "  --help               this text\n";

static void option_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static void option_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mdebug-report: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (see --help)\n");
  va_end(ap);
  exit(2);
}

void input_error(struct profile *p, uint64_t line, uint64_t offset,
                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mdebug-report: error: ");
  put_escaped(stderr, p->path);
  fprintf(stderr, ": line %lu (byte %lu): ", (unsigned long)line,
          (unsigned long)offset);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  p->damaged = true;
}

void input_note(struct profile *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mdebug-report: note: ");
  put_escaped(stderr, p->path);
  fprintf(stderr, ": ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

bool read_input(struct profile *p, const char *path) {
  p->path = path;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "mdebug-report: error: cannot read ");
    put_escaped(stderr, path);
    fprintf(stderr, ": %s\n", strerror(errno));
    if (fd >= 0)
      close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    fprintf(stderr, "mdebug-report: error: ");
    put_escaped(stderr, path);
    fprintf(stderr, ": %s\n",
            S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
    close(fd);
    return false;
  }
  size_t size = (size_t)st.st_size;
  const char *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) {
    fprintf(stderr, "mdebug-report: error: cannot map ");
    put_escaped(stderr, path);
    fprintf(stderr, ": %s\n", strerror(errno));
    return false;
  }
  madvise((void *)data, size, MADV_SEQUENTIAL);
  bool ok;
  if (size >= 7 && memcmp(data, "MDPROF ", 7) == 0)
    ok = read_profile(p, data, size);
  else if (looks_like_json_reports(data, size))
    ok = read_json_reports(p, data, size);
  else if (looks_like_log(data, size))
    ok = read_log(p, data, size);
  else if (size >= 24 && memcmp(data, "Android Native Heap Dump", 24) == 0)
    ok = read_heapdump(p, data, size);
  else if (looks_like_records(data, size))
    ok = read_records(p, data, size);
  else {
    fprintf(stderr, "mdebug-report: error: ");
    put_escaped(stderr, path);
    fprintf(stderr, ": not an mdebug profile, heap dump, record_allocs "
                    "file, log or JSON report\n");
    ok = false;
  }
  /* The model keeps no pointer into the mapping (strings are copied). */
  munmap((void *)data, size);
  if (ok && p->unknown_records)
    input_note(p, "%zu records of kinds this mdebug-report does not know "
                  "were skipped",
               p->unknown_records);
  if (ok && !p->has_end && !p->damaged && strcmp(p->kind, "profile") == 0)
    input_note(p, "no end record: the process was still running or did not "
                  "exit normally");
  return ok;
}

/* ---- options --------------------------------------------------------------- */

static const char *value_of(const char *arg, const char *name) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) == 0 && arg[n] == '=')
    return arg + n + 1;
  return NULL;
}

static size_t parse_count(const char *name, const char *v) {
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (!*v || *end || errno || v[0] == '-')
    option_error("bad value for %s: '%s' (a whole number)", name, v);
  return (size_t)n;
}

static void parse_reports(const char *v) {
  opt.reports_given = true;
  char *list = xstrdup(v);
  for (char *save, *name = strtok_r(list, ",", &save); name;
       name = strtok_r(NULL, ",", &save)) {
    if (strcmp(name, "all") == 0) {
      for (int k = 0; k < R_COUNT; k++)
        opt.report[k] = true;
      continue;
    }
    int k = 0;
    while (k < R_COUNT && strcmp(report_names[k], name) != 0)
      k++;
    if (k == R_COUNT)
      option_error("unknown report '%s' in --report (growth, alloc-points, "
                   "dealloc-points, allocations, periodic, time-slices, "
                   "double-frees, diff, plot, all)",
                   name);
    opt.report[k] = true;
  }
  if (!*v)
    option_error("--report needs at least one report name");
  free(list);
}

static void parse_args(int argc, char **argv, VEC(const char *) * files) {
  opt.format = F_TEXT;
  opt.limit = 25;
  opt.warmup_percent = 10;
  opt.max_slices = 10;
  opt.top = 8;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      exit(0);
    } else if (strcmp(a, "--") == 0) {
      while (++i < argc)
        *vec_push(files) = argv[i];
    } else if ((v = value_of(a, "--report"))) {
      parse_reports(v);
    } else if ((v = value_of(a, "--format"))) {
      if (strcmp(v, "text") == 0)
        opt.format = F_TEXT;
      else if (strcmp(v, "csv") == 0)
        opt.format = F_CSV;
      else if (strcmp(v, "folded") == 0)
        opt.format = F_FOLDED;
      else if (strcmp(v, "html") == 0)
        opt.format = F_HTML;
      else if (strcmp(v, "json") == 0)
        opt.format = F_JSON;
      else if (strcmp(v, "sarif") == 0)
        opt.format = F_SARIF;
      else
        option_error("bad value for --format: '%s' (text, csv, folded, "
                     "html, json or sarif)",
                     v);
    } else if ((v = value_of(a, "--baseline"))) {
      opt.baseline = v;
    } else if (strcmp(a, "-o") == 0) {
      if (++i >= argc)
        option_error("-o needs a file name");
      opt.output = argv[i];
    } else if ((v = value_of(a, "--output"))) {
      opt.output = v;
    } else if ((v = value_of(a, "--start"))) {
      if (!parse_duration(v, &opt.start))
        option_error("bad value for --start: '%s' (a time: 2s, 150ms, 10us, "
                     "40ns, 1.5)",
                     v);
      opt.has_start = true;
    } else if ((v = value_of(a, "--stop"))) {
      if (!parse_duration(v, &opt.stop))
        option_error("bad value for --stop: '%s' (a time: 2s, 150ms, 10us, "
                     "40ns, 1.5)",
                     v);
      opt.has_stop = true;
    } else if ((v = value_of(a, "--function"))) {
      *vec_push(&opt.keep_function) = v;
    } else if ((v = value_of(a, "--file"))) {
      *vec_push(&opt.keep_file) = v;
    } else if ((v = value_of(a, "--module"))) {
      *vec_push(&opt.keep_module) = v;
    } else if ((v = value_of(a, "--remove-function"))) {
      *vec_push(&opt.drop_function) = v;
    } else if ((v = value_of(a, "--remove-file"))) {
      *vec_push(&opt.drop_file) = v;
    } else if ((v = value_of(a, "--remove-module"))) {
      *vec_push(&opt.drop_module) = v;
    } else if ((v = value_of(a, "--limit"))) {
      opt.limit = parse_count("--limit", v);
    } else if ((v = value_of(a, "--min-percent"))) {
      char *end;
      opt.min_percent = strtod(v, &end);
      if (!*v || *end || opt.min_percent < 0 || opt.min_percent > 100)
        option_error("bad value for --min-percent: '%s' (0 to 100)", v);
    } else if ((v = value_of(a, "--warmup"))) {
      size_t n = strlen(v);
      char *end;
      if (n && v[n - 1] == '%') {
        opt.warmup_percent = strtod(v, &end);
        opt.warmup_ns = 0;
        if (end != v + n - 1 || opt.warmup_percent < 0 ||
            opt.warmup_percent >= 100)
          option_error("bad value for --warmup: '%s' (a time, or a "
                       "percentage under 100%%)",
                       v);
      } else if (!parse_duration(v, &opt.warmup_ns)) {
        option_error("bad value for --warmup: '%s' (a time, or a percentage "
                     "under 100%%)",
                     v);
      } else if (opt.warmup_ns == 0) {
        opt.warmup_percent = 0;
      }
    } else if (strcmp(a, "--show-zero-growth") == 0) {
      opt.show_zero_growth = true;
    } else if ((v = value_of(a, "--time-slice"))) {
      if (!parse_duration(v, &opt.slice_ns) || opt.slice_ns == 0)
        option_error("bad value for --time-slice: '%s' (a time above 0)", v);
    } else if ((v = value_of(a, "--max-slices"))) {
      opt.max_slices = parse_count("--max-slices", v);
      if (opt.max_slices == 0 || opt.max_slices > 100000)
        option_error("bad value for --max-slices: '%s' (1 to 100000)", v);
    } else if ((v = value_of(a, "--snapshot"))) {
      opt.snapshot = v;
    } else if ((v = value_of(a, "--diff"))) {
      const char *comma = strchr(v, ',');
      if (!comma || comma == v || !comma[1] || strchr(comma + 1, ','))
        option_error("bad value for --diff: '%s' (two snapshots, A,B)", v);
      opt.diff_a = xstrndup(v, (size_t)(comma - v));
      opt.diff_b = comma + 1;
    } else if ((v = value_of(a, "--plot"))) {
      char *end;
      errno = 0;
      uint64_t id = strtoull(v, &end, 16);
      if (!*v || *end || errno || strlen(v) > 18)
        option_error("bad value for --plot: '%s' (a site id, in hex)", v);
      *vec_push(&opt.plots) = id;
    } else if ((v = value_of(a, "--symbolizer"))) {
      opt.symbolizer = v;
    } else if (strcmp(a, "--no-symbolize") == 0) {
      opt.no_symbolize = true;
    } else if ((v = value_of(a, "--top"))) {
      opt.top = parse_count("--top", v);
      if (opt.top == 0 || opt.top > 64)
        option_error("bad value for --top: '%s' (1 to 64)", v);
    } else if (a[0] == '-' && a[1] != '\0') {
      const char *eq = strchr(a, '=');
      option_error("unknown option '%.*s'", (int)(eq ? eq - a : (long)strlen(a)),
                   a);
    } else {
      *vec_push(files) = a;
    }
  }
  if (!files->n)
    option_error("no input file");
  if (!opt.reports_given) {
    for (size_t k = 0; k < sizeof(default_reports) / sizeof(*default_reports);
         k++)
      opt.report[default_reports[k]] = true;
  }
  if (opt.diff_a)
    opt.report[R_DIFF] = true;
  if (opt.plots.n)
    opt.report[R_PLOT] = true;
  if (opt.has_start && opt.has_stop && opt.stop < opt.start)
    option_error("--stop is before --start");
}

/* ---- output ------------------------------------------------------------------ */

static void summary_line(FILE *out, const struct profile *p) {
  char tb[32];
  fprintf(out, "Input: ");
  put_escaped(out, p->path);
  fprintf(out, " (%s", p->kind);
  if (p->version)
    fprintf(out, " v%d", p->version);
  if (p->program) {
    fprintf(out, " of ");
    put_escaped(out, p->program);
  }
  if (p->pid)
    fprintf(out, ", pid %d", p->pid);
  fprintf(out, "): %zu records, %zu sites, %zu periodic totals, %zu "
               "snapshots, %zu sampled frees, %zu double frees, span %s%s\n",
          p->records, p->sites.n, p->totals.n, p->snapshots.n, p->frees.n,
          p->double_frees.n,
          fmt_time(p->has_end ? p->end_time
                   : p->totals.n ? p->totals.v[p->totals.n - 1].time
                                 : 0,
                   tb),
          p->damaged ? "; DAMAGED: the reports cover the valid records only"
                     : "");
  if (p->options) {
    fprintf(out, "Options: ");
    put_escaped(out, p->options);
    fputc('\n', out);
  }
  if (p->samplings.n) {
    const struct sampling *s = &p->samplings.v[p->samplings.n - 1];
    fprintf(out, "Sampling: sample_rate=%lu sample_bytes=%lu (estimates "
                 "scale each sampled block up by its sampling "
                 "probability)\n",
            (unsigned long)s->rate, (unsigned long)s->bytes);
  }
  if (p->limits.n) {
    const struct limits *l = &p->limits.v[p->limits.n - 1];
    if (l->min_size || l->max_size)
      fprintf(out, "Filters: track_min_size=%lu track_max_size=%lu (blocks "
                   "under the first are never tracked, over the second "
                   "always)\n",
              (unsigned long)l->min_size, (unsigned long)l->max_size);
    if (l->missed)
      fprintf(out, "max_tracked=%lu was reached: %lu sampled blocks were "
                   "not tracked, so the estimates from snapshots and frees "
                   "are low (periodic totals are exact)\n",
              (unsigned long)l->max_tracked, (unsigned long)l->missed);
    if (l->lost)
      fprintf(out, "%lu frees of tracked blocks were not recorded (the "
                   "runtime's queue was full): deallocation points are "
                   "short of them\n",
              (unsigned long)l->lost);
    if (!l->tracking)
      fprintf(out, "Tracking was off at the end (SIGRTMAX-13, "
                   "mdebug_track() or track_enable_on_signal)\n");
  }
  fputc('\n', out);
}

static void emit(FILE *out, struct table *t, bool named) {
  if (!t)
    return;
  if (opt.format == F_CSV)
    print_table_csv(out, t, named);
  else if (opt.format == F_TEXT)
    print_table_text(out, t);
}

static struct table *diff_of(const struct profile *pa, const struct profile *pb,
                             bool two_files) {
  const char *sa = opt.diff_a ? opt.diff_a : two_files ? "last" : "first";
  const char *sb = opt.diff_b ? opt.diff_b : "last";
  const struct snapshot *a = find_snapshot(pa, sa), *b = find_snapshot(pb, sb);
  if (!a || !b) {
    fprintf(stderr, "mdebug-report: error: --diff: no snapshot '%s' in ",
            a ? sb : sa);
    put_escaped(stderr, a ? pb->path : pa->path);
    fputc('\n', stderr);
    status = 1;
    return NULL;
  }
  return build_diff(pa, a, pb, b);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files under a directory (not those whose names start with '.'),
 * sorted by path, into files; false (said) if it cannot be read. */
static bool expand_dir(const char *dir, void *vec, int depth) {
  VEC(const char *) *files = vec;
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "mdebug-report: error: cannot read ");
    put_escaped(stderr, dir);
    fprintf(stderr, ": %s\n", strerror(errno));
    return false;
  }
  VEC(char *) names = {0};
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.')
      *vec_push(&names) = xasprintf("%s/%s", dir, e->d_name);
  closedir(d);
  qsort(names.v, names.n, sizeof(*names.v), by_name);
  bool ok = true;
  for (size_t i = 0; i < names.n; i++) {
    struct stat st;
    if (lstat(names.v[i], &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode) && depth < 16)
      ok &= expand_dir(names.v[i], files, depth + 1);
    else if (S_ISREG(st.st_mode) && st.st_size > 0)
      *vec_push(files) = names.v[i];
  }
  free(names.v);
  return ok;
}

/* The whole of a (small) file, or NULL (said). */
static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *data = NULL;
  size_t n = 0, cap = 0;
  if (f) {
    for (;;) {
      if (n == cap)
        data = xrealloc(data, cap = cap ? cap * 2 : 65536);
      size_t got = fread(data + n, 1, cap - n, f);
      n += got;
      if (got == 0)
        break;
    }
    fclose(f);
  }
  if (!f) {
    fprintf(stderr, "mdebug-report: error: cannot read ");
    put_escaped(stderr, path);
    fprintf(stderr, ": %s\n", strerror(errno));
    free(data);
    return NULL;
  }
  *size = n;
  return data;
}

int main(int argc, char **argv) {
  VEC(const char *) args = {0}, files = {0};
  parse_args(argc, argv, (void *)&args);
  for (size_t i = 0; i < args.n; i++) {
    struct stat st;
    if (stat(args.v[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      size_t before = files.n;
      if (!expand_dir(args.v[i], &files, 0))
        status = 1;
      if (files.n == before) {
        fprintf(stderr, "mdebug-report: error: ");
        put_escaped(stderr, args.v[i]);
        fprintf(stderr, ": no files in this directory\n");
        status = 1;
      }
    } else {
      *vec_push(&files) = args.v[i];
    }
  }
  if (opt.baseline) {
    size_t size;
    char *data = slurp(opt.baseline, &size);
    if (!data || !read_baseline(opt.baseline, data, size))
      return 2;
    free(data);
  }
  FILE *out = stdout;
  if (opt.output && !(out = fopen(opt.output, "w"))) {
    fprintf(stderr, "mdebug-report: error: cannot write ");
    put_escaped(stderr, opt.output);
    fprintf(stderr, ": %s\n", strerror(errno));
    return 2;
  }
  struct profile **profiles = xcalloc(files.n + 1, sizeof(*profiles));
  size_t nprof = 0, nfindings_inputs = 0;
  for (size_t i = 0; i < files.n; i++) {
    struct profile *p = xcalloc(1, sizeof(*p));
    if (!read_input(p, files.v[i])) {
      status = 1;
      continue;
    }
    if (p->damaged)
      status = 1;
    if (p->findings) {
      nfindings_inputs++;
      continue;
    }
    apply_filters_and_window(p);
    profiles[nprof++] = p;
  }
  /* Errors and leaks by site: over every input, when some input holds
   * reports or the output asks for them. */
  if (nfindings_inputs || opt.format == F_JSON || opt.format == F_SARIF ||
      opt.baseline) {
    if (opt.format == F_HTML || opt.format == F_FOLDED)
      option_error("the errors and leaks of logs and JSON reports come as "
                   "text, csv, json or sarif");
    for (size_t i = 0; i < nprof; i++)
      findings_from_profile(profiles[i]);
    print_findings(out, nprof + nfindings_inputs);
    if (opt.baseline && findings_new())
      status = 3;
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
      fprintf(stderr, "mdebug-report: error: writing the output failed: %s\n",
              strerror(errno));
      return 1;
    }
    return status;
  }
  bool several = nprof > 1;
  bool named = opt.format == F_CSV &&
               (several || opt.reports_given == false || ({
                  int n = 0;
                  for (int k = 0; k < R_COUNT; k++)
                    n += opt.report[k];
                  n > 1;
                }));
  if (opt.format == F_HTML)
    html_begin(out);
  for (size_t i = 0; i < nprof; i++) {
    struct profile *p = profiles[i];
    if (opt.format == F_FOLDED) {
      print_folded(out, p);
      continue;
    }
    struct table *tables[R_COUNT] = {0};
    for (int k = 0; k < R_COUNT; k++)
      if (opt.report[k] && k != R_DIFF)
        tables[k] = build_report(p, (enum report_kind)k);
    if (opt.report[R_DIFF] && !several)
      tables[R_DIFF] = diff_of(p, p, false);
    if (opt.format == F_HTML) {
      html_profile(out, p, tables, R_COUNT);
    } else {
      if (several && opt.format == F_TEXT) {
        fprintf(out, "==== ");
        put_escaped(out, p->path);
        fprintf(out, " ====\n\n");
      }
      for (int k = 0; k < R_COUNT; k++)
        emit(out, tables[k], named);
      if (opt.format == F_TEXT)
        summary_line(out, p);
    }
    for (int k = 0; k < R_COUNT; k++)
      if (tables[k])
        table_free(tables[k]);
  }
  if (opt.report[R_DIFF] && several && opt.format != F_FOLDED) {
    struct table *t = diff_of(profiles[0], profiles[1], true);
    if (t) {
      if (opt.format == F_HTML)
        html_table(out, t);
      else
        emit(out, t, named);
      table_free(t);
    }
  }
  if (opt.format == F_HTML)
    html_end(out);
  if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
    fprintf(stderr, "mdebug-report: error: writing the output failed: %s\n",
            strerror(errno));
    return 1;
  }
  return status;
}
