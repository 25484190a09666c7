/* site_ids_lib.c - an instrumented shared library for
 * test/runtime/abi/site_ids.c: 64 allocation sites (one a line) and a free
 * site, which the program calls from several threads at once and from main.
 * Linked by mdebug-clang with libmdebug-rt.so, so its calls pass through
 * that inert copy of the runtime to the program's, with the same
 * descriptors. */
#include <stdlib.h>

/* Each SITE is a call site of its own (a line and column apiece). */
#define SITE(k)                                                                \
  case k:                                                                      \
    return malloc(n);

void *lib_alloc(int site, size_t n) {
  switch (site) {
    SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
    SITE(8) SITE(9) SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15)
    SITE(16) SITE(17) SITE(18) SITE(19) SITE(20) SITE(21) SITE(22) SITE(23)
    SITE(24) SITE(25) SITE(26) SITE(27) SITE(28) SITE(29) SITE(30) SITE(31)
    SITE(32) SITE(33) SITE(34) SITE(35) SITE(36) SITE(37) SITE(38) SITE(39)
    SITE(40) SITE(41) SITE(42) SITE(43) SITE(44) SITE(45) SITE(46) SITE(47)
    SITE(48) SITE(49) SITE(50) SITE(51) SITE(52) SITE(53) SITE(54) SITE(55)
    SITE(56) SITE(57) SITE(58) SITE(59) SITE(60) SITE(61) SITE(62) SITE(63)
  }
  return NULL;
}

void lib_free(void *p) { free(p); }
