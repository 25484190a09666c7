// Proves: in a program that was not rebuilt, run by mdebug-run, a shared
// library built with mdebug-clang still reports its own sites
// (file:line:column): its lost mapping and block are named by the
// library's lines; the program's own by its addresses.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/Inputs/lib_mapping.c -o %t.dir/libmapping.so
// RUN: %clang -g %s -L%t.dir -lmapping -Wl,-rpath,%t.dir -o %t
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %mdebug_run %t 2>&1 | %FileCheck %s
#include <stdio.h>
#include <string.h>

void *lib_lose(void);
char *lib_block(void);

int main(void) {
  lib_lose();
  memset(lib_block(), 0, 41);
  printf("done\n");
  return 0;
}
// CHECK: done
// CHECK: mdebug: 12329 bytes leaked in 1 block and 1 mapping (2 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 12288 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}Inputs/lib_mapping.c:6:10 (lib_lose)
// CHECK: Direct leak of 41 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}Inputs/lib_mapping.c:9:32 (lib_block)
