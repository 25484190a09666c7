/* symbolizer_answer.h - reading llvm-symbolizer's answer for one address
 * (--output-style=LLVM: "FUNCTION\nFILE:LINE:COL\n\n", "??" where unknown),
 * shared by the runtime's helper (symbolize.c) and mdebug-report's
 * (tools/mdebug-report/symbolize.c). Header-only, in place, no allocation:
 * the runtime calls it while it must not allocate. Never trusts the text:
 * a line without the two colons, or a line number of 0, is no location. */
#ifndef MDEBUG_SYMBOLIZER_ANSWER_H
#define MDEBUG_SYMBOLIZER_ANSWER_H

#include <stdbool.h>
#include <string.h>

/* Splits "FILE:LINE:COL" in place (FILE may itself hold ':'): file keeps
 * FILE; *line and *column get the numbers (their digits; a column may be
 * 0). False when it names no location ("??", no line). */
static inline bool md_symbolizer_location(char *file, unsigned *line,
                                          unsigned *column) {
  char *c2 = strrchr(file, ':');
  if (!c2)
    return false;
  *c2 = '\0';
  char *c1 = strrchr(file, ':');
  if (!c1)
    return false;
  *c1 = '\0';
  unsigned l = 0, c = 0;
  for (const char *p = c1 + 1; *p >= '0' && *p <= '9' && l < 100000000u; p++)
    l = l * 10 + (unsigned)(*p - '0');
  for (const char *p = c2 + 1; *p >= '0' && *p <= '9' && c < 100000000u; p++)
    c = c * 10 + (unsigned)(*p - '0');
  if (strcmp(file, "??") == 0 || !l)
    return false;
  *line = l;
  *column = c;
  return true;
}

#endif
