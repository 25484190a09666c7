// Proves: the compiler's exit status and diagnostics come through the wrapper unchanged: a syntax error fails with clang's status 1 and clang's message, and any other status of the driven compiler is returned as is.
// RUN: %not %mdebug_clang -DBROKEN -c %s -o %t.o 2>&1 | %FileCheck %s
// RUN: sh -c '%mdebug_clang -DBROKEN -c %s -o %t.o 2>/dev/null; echo status=$?' | %FileCheck %s --check-prefix=STATUS1
// RUN: sh -c '%mdebug_clang -DBROKEN %s -o %t 2>/dev/null; echo status=$?' | %FileCheck %s --check-prefix=STATUS1
// RUN: echo '#!/bin/sh' > %t.sh
// RUN: echo 'exit 42' >> %t.sh
// RUN: chmod +x %t.sh
// RUN: sh -c 'MDEBUG_CLANG=%t.sh %mdebug_clang -c %s; echo status=$?' | %FileCheck %s --check-prefix=STATUS42
// Clean case: without the error it compiles, status 0.
// RUN: sh -c '%mdebug_clang -c %s -o %t.o; echo status=$?' | %FileCheck %s --check-prefix=STATUS0
int main(void) {
#ifdef BROKEN
  return 0
#else
  return 0;
#endif
}
// CHECK: exit-status.c:13:11: error: expected ';' after return statement
// CHECK: 1 error generated.
// STATUS1: status=1
// STATUS42: status=42
// STATUS0: status=0
