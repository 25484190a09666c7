// Proves: a program of C and C++ objects links with mdebug-clang++ (each compiled by its own wrapper, or both in one command with -x c / -x c++), the runtime serves both languages, and the report names the C site and the C++ one.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %mdebug_clang -c %S/Inputs/mixed-c-part.c -o c-part.o
// RUN: %mdebug_clangxx -c %s -o cxx-part.o
// RUN: %mdebug_clangxx cxx-part.o c-part.o -o prog
// RUN: %not ./prog 2>&1 | %FileCheck %s
// One command, languages given explicitly.
// RUN: %mdebug_clangxx -x c %S/Inputs/mixed-c-part.c -x c++ %s -o prog2
// RUN: %not ./prog2 2>&1 | %FileCheck %s
// Clean case: freeing both blocks, nothing is reported.
// RUN: ./prog clean 2>&1 | count 0
#include <cstdlib>

extern "C" char *c_make(unsigned n);

int main(int argc, char **argv) {
  char *from_c = c_make(11);
  int *from_cxx = new int[3];
  if (argc > 1) {
    delete[] from_cxx;
    std::free(from_c);
  }
  return 0;
}
// CHECK: mdebug: 23 bytes leaked in 2 blocks
// CHECK-DAG: allocated by operator new[] at {{.*}}mixed-c-cxx.cpp:18:19 (main)
// CHECK-DAG: allocated by malloc at {{.*}}mixed-c-part.c:4:35 (c_make)
