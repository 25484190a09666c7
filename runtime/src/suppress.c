/* suppress.c - the suppressions file: `leak:PATTERN` lines, matched against
 * the names of a leak's allocation site (function, source file, module).
 *
 * A pattern matches anywhere in a name; '*' stands for any run of
 * characters, a leading '^' and a trailing '$' anchor it to the name's start
 * and end. Matching is iterative (no recursion, so no pattern can exhaust
 * the stack) and keeps one backtrack point, the last '*': O(pattern x name)
 * at worst, whatever the number of stars.
 *
 * The file is read once, on the first leak check, into mmap'ed memory; it
 * must be a regular file (a directory or a FIFO is refused without blocking)
 * of at most MAX_FILE bytes (a longer one is refused, not cut). Lines echoed
 * in messages are escaped. Never allocates through malloc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "log.h"
#include "options.h"
#include "print.h"
#include "scan_contract.h"
#include "site.h"
#include "suppress.h"

#define MAX_FILE (1u << 20)

static struct {
  char *text; /* the file, '\0' between lines; mmap'ed */
  size_t size, mapped;
  bool loaded;
} supp;

/* The option's path, escaped, for messages. */
static const char *shown_path(char *buf, size_t size) {
  md_escape(buf, size, md_opt.suppressions, strlen(md_opt.suppressions));
  return buf;
}

/* Reads the whole file into supp.text; false (after one message) if it
 * cannot be used. */
static bool read_file(void) {
  char path[MD_PATH_MAX * 4];
  shown_path(path, sizeof(path));
  /* O_NONBLOCK: opening a FIFO with no writer must not hang the check. */
  int fd = open(md_opt.suppressions, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    md_log("mdebug: cannot read the suppressions file %s; no leak is "
           "suppressed", path);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    md_log("mdebug: the suppressions file %s is not a regular file; no leak "
           "is suppressed", path);
    return false;
  }
  if ((unsigned long long)st.st_size > MAX_FILE) {
    close(fd);
    md_log("mdebug: the suppressions file %s is larger than %u bytes; no "
           "leak is suppressed", path, MAX_FILE);
    return false;
  }
  /* One byte more than allowed, to see a file that grew since fstat. */
  supp.mapped = MAX_FILE + 2;
  supp.text = md_mmap(supp.mapped);
  if (!supp.text) {
    close(fd);
    md_log("mdebug: not enough memory to read the suppressions file %s; no "
           "leak is suppressed", path);
    return false;
  }
  for (;;) {
    ssize_t n = read(fd, supp.text + supp.size, MAX_FILE + 1 - supp.size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0 || (supp.size += (size_t)n) > MAX_FILE)
      break;
  }
  close(fd);
  if (supp.size > MAX_FILE) {
    md_log("mdebug: the suppressions file %s is larger than %u bytes; no "
           "leak is suppressed", path, MAX_FILE);
    md_munmap(supp.text, supp.mapped);
    supp.text = NULL;
    supp.size = 0;
    return false;
  }
  return true;
}

void md_suppress_load(void) {
  if (supp.loaded || !md_opt.suppressions[0])
    return;
  supp.loaded = true;
  if (!read_file())
    return;
  for (size_t i = 0; i < supp.size; i++)
    if (supp.text[i] == '\n')
      supp.text[i] = '\0';
  /* Every non-empty, non-comment line must be leak:PATTERN. */
  char path[MD_PATH_MAX * 4], shown[1024];
  for (size_t i = 0; i < supp.size; i += strlen(supp.text + i) + 1) {
    const char *line = supp.text + i;
    while (*line == ' ' || *line == '\t')
      line++;
    if (*line && *line != '#' && strncmp(line, "leak:", 5) != 0) {
      md_escape(shown, sizeof(shown), line, strlen(line));
      md_log("mdebug: %s: ignoring a line that is not leak:PATTERN: %s",
             shown_path(path, sizeof(path)), shown);
    }
  }
}

/* Whether p[0..pn) matches s[0..sn): '*' is any run of characters; with
 * any_start / any_end the pattern may begin / end anywhere in s (as if a
 * '*' stood there). Greedy with one backtrack point, the last '*' seen:
 * when the text after it fails, that star takes one character more. */
static bool match(const char *p, size_t pn, const char *s, size_t sn,
                  bool any_start, bool any_end) {
  size_t i = 0, j = 0;
  bool star = any_start;
  size_t star_i = 0, star_j = 0; /* pattern after the star; where it began */
  for (;;) {
    if (i == pn && (any_end || j == sn))
      return true;
    if (i < pn && p[i] == '*') {
      while (i < pn && p[i] == '*') /* a run of stars is one star */
        i++;
      star = true;
      star_i = i;
      star_j = j;
      continue;
    }
    if (i < pn && j < sn && p[i] == s[j]) {
      i++;
      j++;
      continue;
    }
    if (!star || star_j >= sn)
      return false;
    i = star_i;
    j = ++star_j;
  }
}

MD_COLD bool md_suppress_match(const char *pattern, const char *s) {
  size_t n = strlen(pattern);
  bool start = n && pattern[0] == '^';
  bool end = n > (size_t)start && pattern[n - 1] == '$';
  return match(pattern + start, n - start - end, s, strlen(s), !start, !end);
}

MD_COLD bool md_suppress_match_names(const char *pattern,
                                     const struct md_origin_names *names) {
  const char *each[3] = {names->function, names->file, names->module};
  for (int k = 0; k < 3; k++)
    if (each[k] && each[k][0] && md_suppress_match(pattern, each[k]))
      return true;
  return false;
}

MD_COLD bool md_suppressed(md_origin_t origin) {
  if (!supp.text)
    return false;
  struct md_origin_names names;
  md_origin_names(origin, &names);
  for (size_t i = 0; i < supp.size; i += strlen(supp.text + i) + 1) {
    const char *line = supp.text + i;
    while (*line == ' ' || *line == '\t')
      line++;
    if (strncmp(line, "leak:", 5) == 0 && line[5] &&
        md_suppress_match_names(line + 5, &names))
      return true;
  }
  return false;
}
