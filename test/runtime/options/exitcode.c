// Proves: a run with errors exits with `exitcode` (23 by default, any 1..255
// when set), exitcode=0 keeps the program's own status, and a clean run keeps
// its status too.
// RUN: %mdebug_clang %s -o %t
// RUN: sh -c '%t bug; test $? -eq 23'
// RUN: sh -c 'MDEBUG_OPTIONS=exitcode=7 %t bug; test $? -eq 7'
// RUN: sh -c 'MDEBUG_OPTIONS=exitcode=0 %t bug; test $? -eq 3'
// RUN: sh -c '%t; test $? -eq 3'
#include <stdlib.h>
int main(int argc, char **argv) {
  char *p = malloc(4);
  free(p);
  if (argc > 1)
    free(p);
  return 3;
}
