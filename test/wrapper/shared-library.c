// Proves: -shared -fPIC links an instrumented library against libmdebug-rt.so (DT_NEEDED, with a run path to it), and a program linked with it reports the library's own sites.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -shared -fPIC -DLIBRARY %s -o %t.dir/libshared-lib.so -Werror 2>&1 | count 0
// RUN: llvm-readelf -d %t.dir/libshared-lib.so | %FileCheck %s --check-prefix=DYN
// RUN: llvm-nm -D %t.dir/libshared-lib.so | %FileCheck %s --check-prefix=NM
// RUN: %mdebug_clang %s -L%t.dir -lshared-lib -Wl,-rpath,%t.dir -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// Clean case: no overflow, no report.
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

#ifdef LIBRARY
char *lib_make(size_t n) { return malloc(n); }
void lib_drop(char *p) { free(p); }
#else
char *lib_make(size_t n);
void lib_drop(char *p);

int main(int argc, char **argv) {
  char *p = lib_make(10);
  p[argc > 1 ? 9 : 10] = 1;
  lib_drop(p);
  return 0;
}
#endif
// DYN: (NEEDED) Shared library: [libmdebug-rt.so]
// DYN: ({{RUNPATH|RPATH}}) Library {{runpath|rpath}}: [{{.*}}/lib]
// NM: U __mdebug_malloc
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 HAS A CORRUPTED REAR GUARD
// CHECK: allocated by malloc at {{.*}}shared-library.c:13:35 (lib_make)
// CHECK: detected by free at {{.*}}shared-library.c:14:26 (lib_drop)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
