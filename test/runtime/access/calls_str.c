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
// STRCPY: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITE OF SIZE {{[0-9]+}} AT 0x{{[0-9a-f]+}} (strcpy): its last {{[0-9]+}} bytes past its end
// STRCPY-NEXT:   written by strcpy at {{.*}}calls_str.c:27:5 (main)
// STRCPY-NEXT:   allocated by malloc at {{.*}}calls_str.c:21:17 (main)
// STRNCPY: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITE OF SIZE 12 AT 0x{{[0-9a-f]+}} (strncpy): its last 4 bytes past its end
// STRNCPY-NEXT:   written by strncpy at {{.*}}calls_str.c:29:5 (main)
// STRCAT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 WRITE OF SIZE 7 AT 0x{{[0-9a-f]+}} (strcat): its last 6 bytes past its end
// STRCAT-NEXT:   written by strcat at {{.*}}calls_str.c:31:5 (main)
// STRLEN: mdebug: ERROR: heap-buffer-overflow in
// STRLEN-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ OF SIZE 9 AT 0x{{[0-9a-f]+}} (strlen): its last 1 byte past its end
// STRLEN-NEXT:   read by strlen at {{.*}}calls_str.c:33:9 (main)
// STRLEN-NEXT:   allocated by malloc at {{.*}}calls_str.c:21:36 (main)
// STRCMP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ OF SIZE 9 AT 0x{{[0-9a-f]+}} (strcmp): its last 1 byte past its end
// STRCMP-NEXT:   read by strcmp at {{.*}}calls_str.c:35:17 (main)
// STRDUP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ OF SIZE 9 AT 0x{{[0-9a-f]+}} (strdup): its last 1 byte past its end
// STRDUP-NEXT:   read by strdup at {{.*}}calls_str.c:37:10 (main)
// CLEAN-NOT: mdebug
