// Proves: reports name a site by a path the user can open, from anywhere: a
// source compiled by a relative path (src/prog.c, as make and CMake pass
// sources inside the build tree) and one compiled by its absolute path from
// a build directory inside the checkout (clang then records the name below
// the directory they share) both print as the absolute path. With
// strip_path_prefix=PREFIX the path prints without everything up to and
// including PREFIX; a prefix that does not occur changes nothing; the option
// needs a value.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/src %t.dir/build && cp %s %t.dir/src/prog.c
// RUN: cd %t.dir && %mdebug_clang -g src/prog.c -o rel
// RUN: cd %t.dir/build && %mdebug_clang %t.dir/src/prog.c -o ../abs
// RUN: cd / && %not %t.dir/rel 2>&1 | %FileCheck %s -DDIR=%t.dir --check-prefix=FULL
// RUN: cd / && %not %t.dir/abs 2>&1 | %FileCheck %s -DDIR=%t.dir --check-prefix=FULL
// RUN: env MDEBUG_OPTIONS=strip_path_prefix=%t.dir/ %not %t.dir/rel 2>&1 | %FileCheck %s --check-prefix=STRIP
// RUN: env MDEBUG_OPTIONS=strip_path_prefix=/no/such/prefix/ %not %t.dir/abs 2>&1 | %FileCheck %s -DDIR=%t.dir --check-prefix=FULL
// RUN: env MDEBUG_OPTIONS=strip_path_prefix %not %t.dir/rel 2>&1 | %FileCheck %s -DDIR=%t.dir --check-prefixes=BAD,FULL
// Clean case: the block freed, nothing is reported.
// RUN: %t.dir/rel clean 2>&1 | count 0
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(21);
  if (argc > 1)
    free(p);
  return 0;
}
// BAD: mdebug: MDEBUG_OPTIONS: option 'strip_path_prefix' requires a value (strip_path_prefix=PATH); ignoring MDEBUG_OPTIONS (running with the defaults)
// FULL: mdebug: 21 bytes leaked in 1 block
// FULL: allocated by malloc at [[DIR]]/src/prog.c:22:13 (main)
// STRIP: mdebug: 21 bytes leaked in 1 block
// STRIP: allocated by malloc at src/prog.c:22:13 (main)
