/* symbolize.c - source lines and demangled function names for the frames
 * and return-address sites of a profile, from LLVM's llvm-symbolizer (the
 * tool the runtime runs at report time). Each profile is done once, when a
 * report first names one of its frames: every (module, address) it holds
 * is written to a temporary file, one run of the tool reads it (one request
 * a line, "MODULE" 0xADDRESS) and its answers are read back in order.
 *
 * The tool is --symbolizer=PATH, else the LLVM bin directory recorded at
 * build time, else llvm-symbolizer on PATH; --no-symbolize turns this off.
 * A missing tool, module file or debug information leaves the names the
 * profile itself carries (the runtime's symbol-table names).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "symbolizer_answer.h"

#ifndef MDEBUG_LLVM_BINDIR
#define MDEBUG_LLVM_BINDIR ""
#endif

static VEC(struct source) sources;
static struct map source_index; /* key(path, offset) -> sources index */
static VEC(const struct profile *) done;
static bool warned;

static uint64_t key(const char *path, uint64_t offset) {
  return hash_bytes(hash_bytes(0xcbf29ce484222325ull, path, strlen(path)),
                    &offset, 8);
}

static const char *tool(void) {
  static char path[4096];
  if (opt.symbolizer)
    return opt.symbolizer;
  if (MDEBUG_LLVM_BINDIR[0]) {
    snprintf(path, sizeof(path), "%s/llvm-symbolizer", MDEBUG_LLVM_BINDIR);
    if (access(path, X_OK) == 0)
      return path;
  }
  return "llvm-symbolizer"; /* execvp searches PATH */
}

struct request {
  const char *path;
  uint64_t offset;
};
typedef VEC(struct request) requests_t;

static void ask(const struct profile *p, uint32_t module, uint64_t offset,
                requests_t *out) {
  const char *path = module_name(p, module);
  if (module == NONE || path[0] != '/' || access(path, R_OK) != 0)
    return; /* nothing the tool could open */
  uint64_t k = key(path, offset);
  if (map_get(&source_index, k) != NONE)
    return;
  map_put(&source_index, k, (uint32_t)sources.n);
  *vec_push(&sources) = (struct source){0};
  *vec_push(out) = (struct request){path, offset};
}

/* Reads one line (without its newline) into buf; false at the end. */
static bool line_of(FILE *in, char *buf, size_t size) {
  if (!fgets(buf, (int)size, in))
    return false;
  size_t n = strlen(buf);
  if (n && buf[n - 1] == '\n')
    buf[--n] = '\0';
  else /* longer than buf: drop the rest */
    for (int c; (c = getc(in)) != EOF && c != '\n';)
      ;
  return true;
}

static void answer(struct source *s, const char *function, char *file) {
  if (strcmp(function, "??") != 0)
    s->function = xstrdup(function);
  unsigned line, column;
  if (!md_symbolizer_location(file, &line, &column))
    return;
  s->file = xstrdup(file);
  s->line = line;
  s->column = column;
}

static void run(requests_t *rq, size_t first) {
  FILE *requests = tmpfile();
  int out[2];
  if (!requests || pipe(out) != 0) {
    if (requests)
      fclose(requests);
    return;
  }
  for (size_t i = 0; i < rq->n; i++)
    fprintf(requests, "\"%s\" 0x%lx\n", rq->v[i].path,
            (unsigned long)rq->v[i].offset);
  fflush(requests);
  rewind(requests);
  const char *path = tool();
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(fileno(requests), 0);
    dup2(out[1], 1);
    if (null >= 0)
      dup2(null, 2);
    close(out[0]);
    execlp(path, path, "--inlining=false", "--demangle", "--output-style=LLVM",
           (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  fclose(requests);
  if (pid < 0) {
    close(out[0]);
    return;
  }
  FILE *in = fdopen(out[0], "r");
  char function[4096], file[4096], blank[64];
  size_t got = 0;
  while (in && got < rq->n && line_of(in, function, sizeof(function)) &&
         line_of(in, file, sizeof(file)) && line_of(in, blank, sizeof(blank)))
    answer(&sources.v[first + got++], function, file);
  if (in)
    fclose(in);
  else
    close(out[0]);
  int st;
  waitpid(pid, &st, 0);
  if (!got && rq->n && !warned) {
    warned = true;
    fprintf(stderr,
            "mdebug-report: note: %s gave no answer; frames keep "
            "the names the file has (--symbolizer=PATH, --no-symbolize)\n",
            path);
  }
}

static void symbolize(const struct profile *p) {
  for (size_t i = 0; i < done.n; i++)
    if (done.v[i] == p)
      return;
  *vec_push(&done) = p;
  requests_t rq = {0};
  size_t first = sources.n;
  for (size_t i = 0; i < p->frames.n; i++)
    ask(p, p->frames.v[i].module, p->frames.v[i].offset, &rq);
  for (size_t i = 0; i < p->sites.n; i++)
    if (p->sites.v[i].module != NONE && !p->sites.v[i].file)
      ask(p, p->sites.v[i].module, p->sites.v[i].offset, &rq);
  if (rq.n)
    run(&rq, first);
  free(rq.v);
}

const struct source *source_get(const struct profile *p, uint32_t module,
                                uint64_t offset) {
  if (opt.no_symbolize || module == NONE)
    return NULL;
  symbolize(p);
  uint32_t i = map_get(&source_index, key(module_name(p, module), offset));
  return i == NONE ? NULL : &sources.v[i];
}
