// Proves: access reports follow the runtime's options like every report:
// strip_path_prefix shortens the access's file as the allocation's,
// abort_on_error ends the run at the first bad access (before it happens),
// and log_path sends the report to its file.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strip_path_prefix=%S/ %not %t 2>&1 | %FileCheck %s --check-prefix=STRIP
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t 2>&1 | %FileCheck %s --check-prefix=ABORT
// RUN: rm -f %t.log.*
// RUN: env MDEBUG_OPTIONS=log_path=%t.log %not %t
// RUN: cat %t.log.* | %FileCheck %s --check-prefix=STRIP-NOT-FULL
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) char at(const char *s, int i) { return s[i]; }

int main(void) {
  char *s = calloc(1, 10);
  char c = at(s, 10);
  printf("still running\n");
  free(s);
  return c;
}
// STRIP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 READ PAST ITS END
// STRIP-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// STRIP-NEXT:   read at options.c:14:{{[0-9]+}} (at)
// STRIP-NEXT:   allocated by calloc at options.c:17:13 (main)
// STRIP: still running
// ABORT: mdebug: ERROR: heap buffer overflow
// ABORT: mdebug: abort_on_error: aborting
// ABORT-NOT: still running
// STRIP-NOT-FULL: mdebug: ERROR: heap buffer overflow
// STRIP-NOT-FULL-NEXT: +++ ALLOCATION
// STRIP-NOT-FULL-NEXT:   read of size 1 at
// STRIP-NOT-FULL-NEXT:   read at {{/.*}}options.c:14:{{[0-9]+}} (at)
