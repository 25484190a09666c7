// Proves: atoi, atol, atoll, atof, strtol, strtoul, strtoll, strtoull,
// strtod and strtof are checked at the call for the bytes their parse
// reads: an unterminated run of digits filling its block is read one byte
// past it. A number followed by a non-digit inside the block is read only
// up to that byte and is not reported, unless strict_string_checks asks
// for the whole string (as AddressSanitizer's option). The clean twin
// terminates its string.
// RUN: %mdebug_clang -fmdebug-check-calls -O0 -g %s -o %t
// RUN: %not %t atoi 2>&1 | %FileCheck %s --check-prefix=ATOI
// RUN: %not %t atol 2>&1 | %FileCheck %s --check-prefix=ATOL
// RUN: %not %t atoll 2>&1 | %FileCheck %s --check-prefix=ATOLL
// RUN: %not %t atof 2>&1 | %FileCheck %s --check-prefix=ATOF
// RUN: %not %t strtol 2>&1 | %FileCheck %s --check-prefix=STRTOL
// RUN: %not %t strtoul 2>&1 | %FileCheck %s --check-prefix=STRTOUL
// RUN: %not %t strtoll 2>&1 | %FileCheck %s --check-prefix=STRTOLL
// RUN: %not %t strtoull 2>&1 | %FileCheck %s --check-prefix=STRTOULL
// RUN: %not %t strtod 2>&1 | %FileCheck %s --check-prefix=STRTOD
// RUN: %not %t strtof 2>&1 | %FileCheck %s --check-prefix=STRTOF
// RUN: %t stops 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t stops 2>&1 | %FileCheck %s --check-prefix=STRICT
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = !strcmp(m, "clean");
  char *s = malloc(8), *end = NULL;
  memset(s, '1', 8);
  if (clean)
    s[7] = '\0';
  volatile double r = 0;
  if (!strcmp(m, "atoi") || clean)
    r += atoi(s);
  // ATOI: ERROR: heap buffer overflow
  // ATOI-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ PAST ITS END
  // ATOI-NEXT: read of size 9 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
  // ATOI-NEXT: read by atoi at {{.*}}calls_convert.c:[[@LINE-4]]
  if (!strcmp(m, "atol") || clean)
    r += atol(s);
  // ATOL: read by atol at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "atoll") || clean)
    r += atoll(s);
  // ATOLL: read by atoll at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "atof") || clean)
    r += atof(s);
  // ATOF: read by atof at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "strtol") || clean)
    r += strtol(s, &end, 10);
  // STRTOL: read by strtol at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "strtoul") || clean)
    r += strtoul(s, NULL, 0);
  // STRTOUL: read by strtoul at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "strtoll") || clean)
    r += strtoll(s, &end, 16);
  // STRTOLL: read by strtoll at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "strtoull") || clean)
    r += strtoull(s, &end, 10);
  // STRTOULL: read by strtoull at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "strtod") || clean)
    r += strtod(s, &end);
  // STRTOD: read by strtod at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "strtof") || clean)
    r += strtof(s, &end);
  // STRTOF: read by strtof at {{.*}}calls_convert.c:[[@LINE-1]]
  if (!strcmp(m, "stops")) {
    s[2] = 'x'; /* "11x11111", unterminated: the parse stops at 'x' */
    r += atoi(s);
  }
  // STRICT: ERROR: heap buffer overflow
  // STRICT: read by atoi at {{.*}}calls_convert.c:[[@LINE-3]]
  free(s);
  return r < 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
// CLEAN-NOT: mdebug
