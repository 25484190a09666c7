// Proves: the str* calls are checked at the call, within the blocks their
// strings lie in: strcpy, strncpy and strcat writing past the destination,
// strlen and strcmp reading an unterminated string off the end of its block
// (the report counts the bytes up to the first past the end), strdup
// reading one (the allocation entry point makes that call). The clean twin
// terminates its strings.
// RUN: %mdebug_clang -fmdebug-check-calls -O1 -g %s -o %t
// RUN: %not %t strcpy 2>&1 | %FileCheck %s --check-prefix=STRCPY
// RUN: %not %t strncpy 2>&1 | %FileCheck %s --check-prefix=STRNCPY
// RUN: %not %t strcat 2>&1 | %FileCheck %s --check-prefix=STRCAT
// RUN: %not %t strlen 2>&1 | %FileCheck %s --check-prefix=STRLEN
// RUN: %not %t strcmp 2>&1 | %FileCheck %s --check-prefix=STRCMP
// RUN: %not %t strdup 2>&1 | %FileCheck %s --check-prefix=STRDUP
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int clean = !strcmp(mode, "clean");
  char *small = malloc(8), *text = malloc(8);
  memset(text, 'a', 8);
  text[7] = clean ? '\0' : 'a'; /* unterminated unless clean */
  strcpy(small, "1234567");
  size_t r = 0;
  if (!strcmp(mode, "strcpy"))
    strcpy(small, argv[0]);
  else if (!strcmp(mode, "strncpy"))
    strncpy(small, mode, 12);
  else if (!strcmp(mode, "strcat"))
    strcat(small, mode);
  else if (!strcmp(mode, "strlen"))
    r = strlen(text);
  else if (!strcmp(mode, "strcmp"))
    r = (size_t)strcmp(text, "aaaaaaaaaaaa");
  else if (!strcmp(mode, "strdup"))
    free(strdup(text));
  else
    r = strlen(text) + (size_t)strcmp(text, small);
  free(small);
  free(text);
  return clean ? 0 : (int)(r & 1);
}
// STRCPY: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// STRCPY-NEXT:   write of size {{[0-9]+}} at 0x{{[0-9a-f]+}}: its last {{[0-9]+}} bytes after the end of the block
// STRCPY-NEXT:   written by strcpy at {{.*}}calls_str.c:27:5 (main)
// STRCPY-NEXT:   allocated by malloc at {{.*}}calls_str.c:21:17 (main)
// STRNCPY: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// STRNCPY-NEXT:   write of size 12 at 0x{{[0-9a-f]+}}: its last 4 bytes after the end of the block
// STRNCPY-NEXT:   written by strncpy at {{.*}}calls_str.c:29:5 (main)
// STRCAT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITTEN PAST ITS END
// STRCAT-NEXT:   write of size 7 at 0x{{[0-9a-f]+}}: its last 6 bytes after the end of the block
// STRCAT-NEXT:   written by strcat at {{.*}}calls_str.c:31:5 (main)
// STRLEN: mdebug: ERROR: heap buffer overflow in
// STRLEN-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ PAST ITS END
// STRLEN-NEXT:   read of size 9 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
// STRLEN-NEXT:   read by strlen at {{.*}}calls_str.c:33:9 (main)
// STRLEN-NEXT:   allocated by malloc at {{.*}}calls_str.c:21:36 (main)
// STRCMP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ PAST ITS END
// STRCMP-NEXT:   read of size 9 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
// STRCMP-NEXT:   read by strcmp at {{.*}}calls_str.c:35:17 (main)
// STRDUP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ PAST ITS END
// STRDUP-NEXT:   read of size 9 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
// STRDUP-NEXT:   read by strdup at {{.*}}calls_str.c:37:10 (main)
// CLEAN-NOT: mdebug
