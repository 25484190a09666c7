// Proves: realloc of a block from new[] is reported as an alloc-dealloc
// mismatch released by realloc; the new block is a malloc block that free
// then accepts.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  char *buffer = argc > 1 ? static_cast<char *>(std::malloc(8)) : new char[8];
  std::strcpy(buffer, "abc");
  buffer = static_cast<char *>(std::realloc(buffer, 64));
  std::free(buffer);
  return 0;
}
// CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 ALLOCATED BY operator new[] RELEASED BY realloc
// CHECK-NEXT:   allocated by operator new[] at {{.*}}realloc_new.cpp:11:67 (main)
// CHECK-NEXT:   released by realloc at {{.*}}realloc_new.cpp:13:32 (main)
// CHECK-NOT: ERROR
// CHECK: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
