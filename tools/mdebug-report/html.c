/* html.c - the report as one self-contained HTML file: first a verdict
 * (the sites growing steadily, with their rate; the sites holding most of
 * the memory at the end; the double frees), then inline SVG charts
 * (outstanding bytes over time from the program's start, total and the top
 * allocation sites stacked; the top growing sites; one chart per --plot
 * site; legends name a site before its id), the tables (stacks one frame a
 * line, with file:line where the symbolizer found them and the text of that
 * line when the file can be read here), and a few
 * lines of inline script that check each chart was laid out and record the
 * result on <body> (data-charts, data-rendered), for tests and people
 * alike. A Content-Security-Policy forbids every load from outside: the
 * file must never need the network, fonts or other files.
 */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void esc(FILE *out, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '<')
      fputs("&lt;", out);
    else if (c == '>')
      fputs("&gt;", out);
    else if (c == '&')
      fputs("&amp;", out);
    else if (c == '"')
      fputs("&quot;", out);
    else if (c == '\n' || c == '\t')
      fputc(c, out); /* stacks in <pre>: one frame a line */
    else if (c < 0x20 || c == 0x7f)
      fprintf(out, "\\x%02x", c);
    else
      fputc(c, out);
  }
}

void html_begin(FILE *out) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
        "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        "<title>mdebug-report</title>\n<style>\n"
        "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;max-width:1200px}\n"
        "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
        "table{border-collapse:collapse;margin:.5em 0}\n"
        "td,th{padding:2px 8px;border-bottom:1px solid #ddd;vertical-align:top}\n"
        "th{background:#f0f0f0;text-align:left}td.r{text-align:right;white-space:nowrap;"
        "font-variant-numeric:tabular-nums}\n"
        "td pre{margin:0;font-size:11px;color:#555}\n"
        ".note{color:#555}.legend span{display:inline-block;margin-right:1em}\n"
        ".legend i{display:inline-block;width:10px;height:10px;margin-right:4px}\n"
        "svg.chart{background:#fff;border:1px solid #ccc}\n"
        "svg text{font:11px sans-serif;fill:#333}\n"
        ".id{color:#999;font:11px monospace;margin-left:.4em}\n"
        "section.verdict{border:2px solid #c33;border-radius:6px;"
        "padding:.2em 1.2em .6em;background:#fff8f6;margin:1em 0}\n"
        "section.verdict.ok{border-color:#4a4;background:#f6fff6}\n"
        "section.verdict h2{margin-top:.6em}section.verdict li{margin:.3em 0}\n"
        ".site{font-weight:bold}.where{color:#555}\n"
        "pre .src{color:#1a6e1a}\n"
        "</style></head>\n<body>\n<h1>mdebug-report</h1>\n",
        out);
}

static const char *const colors[] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#d62728"};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))

/* A step for about five grid lines, round in the unit fmt_bytes will show
 * (1, 2 or 5 times a power of ten of B, KiB, MiB, ...). */
static double nice_step(double max) {
  if (max <= 0)
    return 1;
  double unit = 1;
  while (max / unit >= 1024 * 2)
    unit *= 1024;
  double raw = max / unit / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag * unit;
}

/* A chart of n series over the same times: stacked areas (and a total
 * line) or plain lines. The time axis starts at the program's start (or
 * --start), not at the first point. ids[k]: series k's site id, shown after
 * its name (0 or ids NULL: none). */
static void chart(FILE *out, const char *title, const uint64_t *t, size_t npts,
                  double *const *y, const char *const *names,
                  const uint64_t *ids, size_t n, bool stacked,
                  const double *total) {
  const double W = 960, H = 320, L = 70, R = 20, T = 30, B = 40;
  double ymax = 0;
  for (size_t i = 0; i < npts; i++) {
    double sum = 0;
    for (size_t k = 0; k < n; k++)
      sum = stacked ? sum + y[k][i] : fmax(sum, y[k][i]);
    if (total)
      sum = fmax(sum, total[i]);
    ymax = fmax(ymax, sum);
  }
  double step = nice_step(ymax);
  ymax = step * ceil(ymax / step);
  if (ymax <= 0)
    ymax = 1;
  uint64_t t0 = opt.has_start ? opt.start : 0, t1 = npts ? t[npts - 1] : 1;
  if (npts && t[0] < t0)
    t0 = t[0];
  double span = t1 > t0 ? (double)(t1 - t0) : 1;
#define X(ti) (L + ((double)((ti) - t0)) / span * (W - L - R))
#define Y(v) (H - B - (v) / ymax * (H - T - B))
  fprintf(out, "<h3>");
  esc(out, title);
  fprintf(out, "</h3>\n<svg class=\"chart\" "
               "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "role=\"img\">\n",
          W, H, W, H);
  /* Axes, grid and labels. */
  for (double v = 0; v <= ymax * 1.0001; v += step) {
    char b[32];
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#eee\"/><text x=\"%.1f\" y=\"%.1f\" "
                 "text-anchor=\"end\">%s</text>\n",
            L, Y(v), W - R, Y(v), L - 6, Y(v) + 4, fmt_bytes(v, b));
  }
  for (int i = 0; i <= 6; i++) {
    uint64_t ti = t0 + (uint64_t)(span * i / 6);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                 "%.1f s</text>\n",
            X(ti), H - B + 16, (double)ti / 1e9);
  }
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#888\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
               "text-anchor=\"middle\">time</text>\n",
          L, H - B, W - R, H - B, (L + W - R) / 2, H - 6);
  /* Series: stacked areas bottom up, or lines. */
  double *base = xcalloc(npts ? npts : 1, sizeof(double));
  for (size_t k = 0; k < n; k++) {
    const char *color = colors[k % NCOLORS];
    fprintf(out, "<path class=\"series\" d=\"");
    for (size_t i = 0; i < npts; i++)
      fprintf(out, "%s%.1f %.1f", i ? " L" : "M", X(t[i]),
              Y(stacked ? base[i] + y[k][i] : y[k][i]));
    if (stacked) {
      for (size_t i = npts; i-- > 0;)
        fprintf(out, " L%.1f %.1f", X(t[i]), Y(base[i]));
      fprintf(out, " Z\" fill=\"%s\" fill-opacity=\"0.75\" stroke=\"%s\">",
              color, color);
      for (size_t i = 0; i < npts; i++)
        base[i] += y[k][i];
    } else {
      fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\">", color);
    }
    fprintf(out, "<title>");
    esc(out, names[k]);
    if (ids && ids[k])
      fprintf(out, " (site %016lx)", (unsigned long)ids[k]);
    fprintf(out, "</title></path>\n");
  }
  if (total && npts) {
    fprintf(out, "<path class=\"series\" d=\"");
    for (size_t i = 0; i < npts; i++)
      fprintf(out, "%s%.1f %.1f", i ? " L" : "M", X(t[i]), Y(total[i]));
    fprintf(out, "\" fill=\"none\" stroke=\"#222\" stroke-width=\"2\">"
                 "<title>total</title></path>\n");
  }
  free(base);
  fprintf(out, "</svg>\n<div class=\"legend\">");
  if (total)
    fprintf(out, "<span><i style=\"background:#222\"></i>total</span>");
  for (size_t k = 0; k < n; k++) {
    fprintf(out, "<span><i style=\"background:%s\"></i>", colors[k % NCOLORS]);
    esc(out, names[k]);
    if (ids && ids[k])
      fprintf(out, "<span class=\"id\">%016lx</span>", (unsigned long)ids[k]);
    fprintf(out, "</span>");
  }
  fprintf(out, "</div>\n");
#undef X
#undef Y
}

/* Whether a site allocates (a free, delete or munmap site holds nothing). */
static bool holds_memory(const struct site *s) {
  const char *op = s->op;
  return !op || (strcmp(op, "free") != 0 && strncmp(op, "operator delete", 15) != 0 &&
                 strcmp(op, "munmap") != 0);
}

static int by_last(const void *a, const void *b, void *arg) {
  const double *last = arg;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return last[x] < last[y] ? 1 : last[x] > last[y] ? -1 : (x > y) - (x < y);
}

/* Each site's live bytes at the end (its last periodic total, or the last
 * snapshot's estimate); freed by the caller. */
static double *final_bytes(const struct profile *p, bool exact) {
  double *last = xcalloc(p->sites.n ? p->sites.n : 1, sizeof(double));
  if (exact && p->totals.n) {
    const struct totals *lt = &p->totals.v[p->totals.n - 1];
    for (uint32_t k = 0; k < lt->n; k++)
      last[p->rows.v[lt->first + k].site] =
          (double)p->rows.v[lt->first + k].live_bytes;
  } else if (p->snapshots.n) {
    const struct snapshot *sn = &p->snapshots.v[p->snapshots.n - 1];
    for (uint32_t k = 0; k < sn->n; k++) {
      double by, bl;
      block_weight(p, &p->blocks.v[sn->first + k], &by, &bl);
      last[p->blocks.v[sn->first + k].site] += by;
    }
  }
  return last;
}

/* A site for people: its function in bold, then where ("malloc at
 * file:line:col"), then its id in grey. */
static void site_html(FILE *out, const struct profile *p, uint32_t site) {
  const struct site *s = &p->sites.v[site];
  char label[1024];
  if (s->function) {
    fprintf(out, "<span class=\"site\">");
    esc(out, s->function);
    fprintf(out, "</span> ");
  }
  fprintf(out, "<span class=\"where\">");
  if (s->file && s->function) { /* the function is said already */
    snprintf(label, sizeof(label), "%s at %s:%u:%u%s%s",
             s->op ? s->op : "allocated", s->file, s->line, s->column,
             s->type ? " as " : "", s->type ? s->type : "");
    esc(out, label);
  } else {
    esc(out, site_label(p, site, label, sizeof(label)));
  }
  fprintf(out, "</span><span class=\"id\">%016lx</span>",
          (unsigned long)s->id);
}

/* What the user came for, first: which sites grow (a leak, or a cache
 * without a bound), which hold the memory, and the errors recorded. */
static void verdict(FILE *out, const struct profile *p) {
  char b1[32], b2[32], b3[32];
  struct series total;
  site_series(p, NONE, &total);
  struct growth *g;
  uint64_t warm;
  size_t points;
  size_t ng = total.n >= 2 ? growth_analysis(p, &g, &warm, &points) : 0;
  if (total.n < 2)
    g = NULL;
  size_t grow = 0;
  while (grow < ng && grow < 3 && g[grow].score > 0 && g[grow].rate > 0 &&
         g[grow].score >= g[0].score / 10)
    grow++;
  bool bad = grow || p->double_frees.n;
  fprintf(out, "<section class=\"verdict%s\" id=\"verdict\">\n<h2>Verdict"
               "</h2>\n<ul>\n", bad ? "" : " ok");
  for (size_t k = 0; k < grow; k++) {
    /* When did it last grow? A site that stopped long before the end (a
     * table filled at start-up) is no leak, whatever its average rate. */
    struct series one;
    site_series(p, g[k].site, &one);
    uint64_t grew = one.n ? one.t[0] : 0, end = one.n ? one.t[one.n - 1] : 0;
    for (size_t i = 1; i < one.n; i++)
      if (one.bytes[i] > one.bytes[i - 1])
        grew = one.t[i];
    bool stopped = one.n > 2 && end > warm && grew < end - (end - warm) / 5;
    bool steady = g[k].r2 > 0.9 && g[k].monotonicity > 0.9 && !stopped;
    series_free(&one);
    fprintf(out, "<li class=\"growing\">");
    site_html(out, p, g[k].site);
    if (stopped)
      fprintf(out, " grew <b>%s/s</b> until %s, then stopped (%s live at the "
                   "end)</li>\n",
              fmt_bytes(g[k].rate, b1), fmt_time(grew, b2),
              fmt_bytes(g[k].last, b3));
    else
      fprintf(out, " is growing <b>%s/s</b> (%s live at the end; fit R&sup2; "
                   "%.2f, monotonic %.2f)%s</li>\n",
              fmt_bytes(g[k].rate, b1), fmt_bytes(g[k].last, b2), g[k].r2,
              g[k].monotonicity, steady ? ": <b>a likely leak</b>" : "");
  }
  if (!grow && total.n >= 2)
    fprintf(out, "<li>No site grows steadily after the warm-up (%s).</li>\n",
            fmt_time(warm, b1));
  else if (total.n < 2)
    fprintf(out, "<li>Growth needs two periodic totals or snapshots; this "
                 "input has %zu.</li>\n", total.n);
  /* the sites that hold most of the memory at the end */
  double *last = final_bytes(p, total.exact);
  uint32_t *order = xmalloc((p->sites.n ? p->sites.n : 1) * sizeof(uint32_t));
  size_t n = 0;
  double sum = 0;
  for (size_t s = 0; s < p->sites.n; s++)
    if (p->sites.v[s].kept && last[s] > 0 && holds_memory(&p->sites.v[s])) {
      order[n++] = (uint32_t)s;
      sum += last[s];
    }
  qsort_r(order, n, sizeof(uint32_t), by_last, last);
  size_t hold = 0;
  double held = 0;
  while (hold < n && hold < 5 && (hold < 1 || held < sum * 0.8)) {
    held += last[order[hold]];
    hold++;
  }
  if (hold) {
    fprintf(out, "<li class=\"holding\">The top %zu site%s (of %zu) hold%s "
                 "<b>%.0f%%</b> of the %s live at the end:<ol>\n",
            hold, hold > 1 ? "s" : "", n, hold > 1 ? "" : "s",
            sum > 0 ? held / sum * 100 : 0, fmt_bytes(sum, b1));
    for (size_t k = 0; k < hold; k++) {
      fprintf(out, "<li><b>%s</b> (%.0f%%) ", fmt_bytes(last[order[k]], b1),
              last[order[k]] / sum * 100);
      site_html(out, p, order[k]);
      fprintf(out, "</li>\n");
    }
    fprintf(out, "</ol></li>\n");
  } else {
    fprintf(out, "<li>No allocation site holds memory at the end.</li>\n");
  }
  if (total.n) {
    double peak = 0;
    uint64_t at = 0;
    for (size_t i = 0; i < total.n; i++)
      if (total.bytes[i] > peak) {
        peak = total.bytes[i];
        at = total.t[i];
      }
    fprintf(out, "<li>Peak: %s live at %s.</li>\n", fmt_bytes(peak, b1),
            fmt_time(at, b2));
  }
  if (p->double_frees.n) {
    fprintf(out, "<li class=\"errors\"><b>%zu double free%s</b>",
            p->double_frees.n, p->double_frees.n > 1 ? "s" : "");
    for (size_t i = 0; i < p->double_frees.n && i < 3; i++) {
      fprintf(out, "%s", i ? "; " : ": ");
      site_html(out, p, p->double_frees.v[i].second_site);
    }
    fprintf(out, "%s</li>\n", p->double_frees.n > 3 ? "; ..." : "");
  } else {
    fprintf(out, "<li>No double free recorded.</li>\n");
  }
  fprintf(out, "</ul>\n</section>\n");
  free(order);
  free(last);
  free(g);
  series_free(&total);
}

/* The top sites stacked under the total, from the series of each. */
static void outstanding_chart(FILE *out, const struct profile *p) {
  struct series total;
  site_series(p, NONE, &total);
  if (total.n < 2) {
    fprintf(out, "<p class=\"note\">No chart of outstanding bytes: this input "
                 "has fewer than two periodic totals or snapshots.</p>\n");
    series_free(&total);
    return;
  }
  double *last = final_bytes(p, total.exact);
  struct series one;
  uint32_t *order = xmalloc(p->sites.n * sizeof(uint32_t));
  size_t n = 0;
  /* Allocation sites that hold memory at the end: a free site holds none. */
  for (size_t s = 0; s < p->sites.n; s++)
    if (p->sites.v[s].kept && last[s] > 0 && holds_memory(&p->sites.v[s]))
      order[n++] = (uint32_t)s;
  qsort_r(order, n, sizeof(uint32_t), by_last, last);
  size_t top = n < opt.top ? n : opt.top;
  double **y = xcalloc(top + 1, sizeof(double *));
  char **names = xcalloc(top + 1, sizeof(char *));
  uint64_t *ids = xcalloc(top + 1, sizeof(uint64_t));
  double *other = xcalloc(total.n, sizeof(double));
  memcpy(other, total.bytes, total.n * sizeof(double));
  for (size_t k = 0; k < top; k++) {
    site_series(p, order[k], &one);
    y[k] = one.bytes;
    free(one.t);
    for (size_t i = 0; i < total.n; i++)
      other[i] -= y[k][i];
    char label[1024];
    names[k] = xstrdup(site_label(p, order[k], label, sizeof(label)));
    ids[k] = p->sites.v[order[k]].id;
  }
  for (size_t i = 0; i < total.n; i++)
    other[i] = fmax(other[i], 0);
  y[top] = other;
  names[top] = xstrdup("all other sites");
  chart(out,
        total.exact ? "Outstanding bytes over time (the top sites stacked)"
                    : "Outstanding bytes over time, estimated from the "
                      "snapshots (the top sites stacked)",
        total.t, total.n, y, (const char *const *)names, ids, top + 1, true,
        total.bytes);
  for (size_t k = 0; k <= top; k++) {
    free(y[k]);
    free(names[k]);
  }
  free(y);
  free(names);
  free(ids);
  free(order);
  free(last);
  series_free(&total);
}

static void growth_chart(FILE *out, const struct profile *p) {
  struct growth *g;
  uint64_t warm;
  size_t points;
  size_t n = growth_analysis(p, &g, &warm, &points);
  /* The top five, among those within a tenth of the first one's score. */
  size_t top = 0;
  while (top < n && top < 5 && g[top].score > 0 &&
         g[top].score >= g[0].score / 10)
    top++;
  if (top) {
    struct series s;
    double **y = xcalloc(top, sizeof(double *));
    char **names = xcalloc(top, sizeof(char *));
    uint64_t *ids = xcalloc(top, sizeof(uint64_t));
    uint64_t *t = NULL;
    size_t npts = 0;
    for (size_t k = 0; k < top; k++) {
      site_series(p, g[k].site, &s);
      y[k] = s.bytes;
      free(t);
      t = s.t;
      npts = s.n;
      char label[1024];
      char rate[32];
      names[k] = xasprintf("#%zu %s/s: %s", k + 1, fmt_bytes(g[k].rate, rate),
                           site_label(p, g[k].site, label, sizeof(label)));
      ids[k] = p->sites.v[g[k].site].id;
    }
    chart(out, "Live bytes of the top growing sites", t, npts, y,
          (const char *const *)names, ids, top, false, NULL);
    for (size_t k = 0; k < top; k++) {
      free(y[k]);
      free(names[k]);
    }
    free(y);
    free(names);
    free(ids);
    free(t);
  }
  free(g);
}

static void plot_charts(FILE *out, const struct profile *p) {
  for (size_t k = 0; k < opt.plots.n; k++) {
    uint32_t site = map_get(&p->site_index, opt.plots.v[k]);
    if (site == NONE) {
      fprintf(out, "<p class=\"note\">--plot: no site %016lx in this input."
                   "</p>\n",
              (unsigned long)opt.plots.v[k]);
      continue;
    }
    struct series s;
    site_series(p, site, &s);
    char label[1024];
    char *name = xstrdup(site_label(p, site, label, sizeof(label)));
    char *title = xasprintf("Live bytes of %s (site %016lx)", name,
                            (unsigned long)opt.plots.v[k]);
    double *y[1] = {s.bytes};
    const char *names[1] = {name};
    uint64_t ids[1] = {opt.plots.v[k]};
    chart(out, title, s.t, s.n, y, names, ids, 1, false, NULL);
    free(name);
    free(title);
    series_free(&s);
  }
}

/* ---- source lines under stack frames -------------------------------------- */

struct source_file {
  char *path;
  char *text;                 /* NULL: unreadable */
  VEC(const char *) lines;    /* into text, each ending at '\n' or NUL */
};
static VEC(struct source_file) sources_read;

/* Line `line` (from 1) of `path`, without its newline, or NULL when the
 * file cannot be read here (another machine's path, a system header). */
static const char *source_text(const char *path, unsigned line, size_t *len) {
  struct source_file *f = NULL;
  for (size_t i = 0; i < sources_read.n && !f; i++)
    if (strcmp(sources_read.v[i].path, path) == 0)
      f = &sources_read.v[i];
  if (!f) {
    f = vec_push(&sources_read);
    f->path = xstrdup(path);
    FILE *in = fopen(path, "r");
    if (in) {
      size_t cap = 0, n = 0;
      char buf[65536];
      for (size_t got; (got = fread(buf, 1, sizeof(buf), in)) > 0 &&
                       n < (4u << 20);) {
        if (n + got + 1 > cap)
          f->text = xrealloc(f->text, cap = (n + got + 1) * 2);
        memcpy(f->text + n, buf, got);
        n += got;
      }
      fclose(in);
      if (f->text) {
        f->text[n] = '\0';
        for (const char *p = f->text; *p;) {
          *vec_push(&f->lines) = p;
          const char *nl = strchr(p, '\n');
          if (!nl)
            break;
          p = nl + 1;
        }
      }
    }
  }
  if (!f->text || line == 0 || line > f->lines.n)
    return NULL;
  const char *s = f->lines.v[line - 1];
  while (*s == ' ' || *s == '\t')
    s++;
  const char *e = strchr(s, '\n');
  *len = e ? (size_t)(e - s) : strlen(s);
  while (*len && (s[*len - 1] == ' ' || s[*len - 1] == '\r'))
    (*len)--;
  return *len ? s : NULL;
}

/* A stack, one frame a line ("#00 pc 0x... in fn FILE:LINE:COL (module)"),
 * each followed by its source line when FILE can be read here. */
static void stack_html(FILE *out, const char *stack) {
  char *copy = xstrdup(stack);
  for (char *line = copy, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    esc(out, line);
    /* FILE:LINE:COL is the word before " (MODULE)" at the end */
    char *paren = strrchr(line, '(');
    if (paren && paren > line + 1 && paren[-1] == ' ') {
      paren[-1] = '\0';
      char *word = strrchr(line, ' ');
      char *c2 = word ? strrchr(word, ':') : NULL;
      if (c2) {
        *c2 = '\0';
        char *c1 = strrchr(word, ':');
        unsigned n = c1 ? (unsigned)strtoul(c1 + 1, NULL, 10) : 0;
        size_t len = 0;
        const char *src = NULL;
        if (c1 && n) {
          *c1 = '\0';
          src = source_text(word + 1, n, &len);
        }
        if (src) {
          char *text = xstrndup(src, len);
          fprintf(out, "\n      <span class=\"src\">");
          esc(out, text);
          fprintf(out, "</span>");
          free(text);
        }
      }
    }
    if (next)
      fputc('\n', out);
  }
  free(copy);
}

void html_table(FILE *out, const struct table *t) {
  fprintf(out, "<h2>");
  esc(out, t->title);
  fprintf(out, "</h2>\n");
  if (t->note) {
    fprintf(out, "<p class=\"note\">");
    esc(out, t->note);
    fprintf(out, "</p>\n");
  }
  size_t rows = table_rows(t);
  if (!rows) {
    fprintf(out, "<p>(nothing to report)</p>\n");
    return;
  }
  fprintf(out, "<table><tr>");
  for (size_t c = 0; c < t->ncols; c++) {
    fprintf(out, "<th>");
    esc(out, t->head[c]);
    fprintf(out, "</th>");
  }
  fprintf(out, "</tr>\n");
  for (size_t r = 0; r < rows; r++) {
    fprintf(out, "<tr>");
    for (size_t c = 0; c < t->ncols; c++) {
      fprintf(out, "<td%s>", t->align[c] == RIGHT ? " class=\"r\"" : "");
      esc(out, t->cells.v[r * t->ncols + c]);
      if (c + 1 == t->ncols && t->details.v[r]) {
        fprintf(out, "<pre>");
        stack_html(out, t->details.v[r]);
        fprintf(out, "</pre>");
      }
      fprintf(out, "</td>");
    }
    fprintf(out, "</tr>\n");
  }
  fprintf(out, "</table>\n");
}

void html_profile(FILE *out, const struct profile *p, struct table **tables,
                  size_t ntables) {
  char tb[32];
  verdict(out, p);
  fprintf(out, "<h2 class=\"input\">");
  esc(out, p->path);
  fprintf(out, "</h2>\n<p class=\"note\">%s", p->kind);
  if (p->program) {
    fprintf(out, " of ");
    esc(out, p->program);
  }
  if (p->pid)
    fprintf(out, " (pid %d)", p->pid);
  fprintf(out, ", %zu records, %zu sites, %zu periodic totals, %zu "
               "snapshots, %zu double frees; span %s",
          p->records, p->sites.n, p->totals.n, p->snapshots.n,
          p->double_frees.n,
          fmt_time(p->totals.n ? p->totals.v[p->totals.n - 1].time
                   : p->snapshots.n ? p->snapshots.v[p->snapshots.n - 1].time
                                    : 0,
                   tb));
  if (p->options) {
    fprintf(out, "; options: ");
    esc(out, p->options);
  }
  fprintf(out, "%s</p>\n", p->damaged ? " <b>(damaged: only the valid "
                                        "records are shown)</b>"
                                      : "");
  outstanding_chart(out, p);
  if (opt.report[R_GROWTH])
    growth_chart(out, p);
  plot_charts(out, p);
  for (size_t i = 0; i < ntables; i++)
    if (tables[i])
      html_table(out, tables[i]);
}

void html_end(FILE *out) {
  /* Checks that every chart was laid out (each series has a box); says so
   * on <body> and on the console when one was not. */
  fputs("<script>\n(function(){var c=document.querySelectorAll('svg.chart'),"
        "ok=0;for(var i=0;i<c.length;i++){var s=c[i].querySelectorAll("
        "'path.series'),d=0;for(var k=0;k<s.length;k++){var b=s[k].getBBox();"
        "if(b.width>0||b.height>0)d++;}if(s.length&&d==s.length)ok++;else "
        "console.error('mdebug-report: chart '+i+' did not render');}"
        "document.body.setAttribute('data-charts',c.length);"
        "document.body.setAttribute('data-rendered',ok);})();\n</script>\n"
        "</body></html>\n",
        out);
}
