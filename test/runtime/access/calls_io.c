// Proves: the destinations of sprintf, snprintf, fgets, read and fread are
// checked at the call: sprintf and snprintf for the bytes they will write
// (snprintf at most its size: snprintf(buf, 1000, "x") into a small buffer
// is fine, as AddressSanitizer has it), the others for the size they are
// given (as _FORTIFY_SOURCE: a buffer smaller than its stated size is a bug
// even when this call reads less). The clean twin's buffers are large
// enough, and its snprintf states a size larger than its buffer.
// RUN: %mdebug_clang -fmdebug-check-calls -O1 -g %s -o %t
// RUN: %not %t sprintf 2>&1 | %FileCheck %s --check-prefix=SPRINTF
// RUN: %not %t snprintf 2>&1 | %FileCheck %s --check-prefix=SNPRINTF
// RUN: echo hello | %not %t fgets 2>&1 | %FileCheck %s --check-prefix=FGETS
// RUN: echo hello | %not %t read 2>&1 | %FileCheck %s --check-prefix=READ
// RUN: echo hello | %not %t fread 2>&1 | %FileCheck %s --check-prefix=FREAD
// RUN: echo hello | %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  size_t size = strcmp(mode, "clean") ? 8 : 64;
  char *buf = malloc(size);
  int r = 0;
  if (!strcmp(mode, "sprintf"))
    r = sprintf(buf, "%s-%d", mode, 12345);
  else if (!strcmp(mode, "snprintf"))
    r = snprintf(buf, 16, "%s-%d", mode, 1234);
  else if (!strcmp(mode, "fgets"))
    r = fgets(buf, 32, stdin) != NULL;
  else if (!strcmp(mode, "read"))
    r = (int)read(0, buf, 16);
  else if (!strcmp(mode, "fread"))
    r = (int)fread(buf, 4, 4, stdin);
  else
    r = sprintf(buf, "%d", 1) + snprintf(buf, 1000, "x") +
        (fgets(buf, (int)size, stdin) != NULL) + (int)fread(buf, 1, size, stdin);
  free(buf);
  return r < 0;
}
// SPRINTF: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// SPRINTF-NEXT:   write of size 14 at 0x{{[0-9a-f]+}}: its last 6 bytes after the end of the block
// SPRINTF-NEXT:   written by sprintf at {{.*}}calls_io.c:26:9 (main)
// SPRINTF-NEXT:   allocated by malloc at {{.*}}calls_io.c:23:15 (main)
// SNPRINTF: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// SNPRINTF-NEXT:   write of size 14 at 0x{{[0-9a-f]+}}: its last 6 bytes after the end of the block
// SNPRINTF-NEXT:   written by snprintf at {{.*}}calls_io.c:28:9 (main)
// FGETS: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// FGETS-NEXT:   write of size 32 at 0x{{[0-9a-f]+}}: its last 24 bytes after the end of the block
// FGETS-NEXT:   written by fgets at {{.*}}calls_io.c:30:9 (main)
// READ: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// READ-NEXT:   write of size 16 at 0x{{[0-9a-f]+}}: its last 8 bytes after the end of the block
// READ-NEXT:   written by read at {{.*}}calls_io.c:32:14 (main)
// FREAD: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// FREAD-NEXT:   write of size 16 at 0x{{[0-9a-f]+}}: its last 8 bytes after the end of the block
// FREAD-NEXT:   written by fread at {{.*}}calls_io.c:34:14 (main)
// CLEAN-NOT: mdebug
