// Proves: `new T[0]` of a type with a destructor (an 8-byte block holding
// the element count 0, the program keeping a pointer to its end) is kept
// by that pointer, in a global, at -O0 and -O2: no report, status 0. Lost,
// it is still reported as an 8-byte leak.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %mdebug_clangxx -g -O2 %s -o %t.O2
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=KEPT
// RUN: %python %S/../../Inputs/exit_status.py %t.O2 2>&1 | %FileCheck %s --check-prefix=KEPT
// RUN: %python %S/../../Inputs/exit_status.py %t lose 2>&1 | %FileCheck %s --check-prefix=LOST
// RUN: %python %S/../../Inputs/exit_status.py %t.O2 lose 2>&1 | %FileCheck %s --check-prefix=LOST
#include <cstdio>

struct Item {
  ~Item() { std::puts("destroyed"); }
  long value;
};

Item *volatile items;

int main(int argc, char **argv) {
  items = new Item[0];
  if (argc > 1)
    items = nullptr;
  return 0;
}
// KEPT-NOT: mdebug
// KEPT: exit status: 0
// LOST: mdebug: ERROR: memory leak in {{.*}}
// LOST-NEXT: mdebug: 8 bytes leaked in 1 block (1 direct, 0 indirect); {{.*}}
// LOST-NEXT: Direct leak of 8 bytes in 1 block:
// LOST-NEXT:   allocated by operator new[] at {{.*}}new_array_zero.cpp:21:11 (main)
// LOST: exit status: 23
