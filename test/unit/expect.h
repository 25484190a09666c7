/* expect.h - the unit tests' one check: EXPECT(cond) counts a pass or
 * prints the failed condition with its file and line (on stdout, beside
 * the test's summary); each test prints "NAME: P
 * passed, F failed" from the two counters and exits non-zero on a failure.
 * Header-only, for the test programs of this directory (not the runtime). */
#ifndef MDEBUG_UNIT_EXPECT_H
#define MDEBUG_UNIT_EXPECT_H

#include <stdio.h>

static int passed, failed;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (cond)                                                                  \
      passed++;                                                                \
    else {                                                                     \
      failed++;                                                                \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
    }                                                                          \
  } while (0)

#endif
