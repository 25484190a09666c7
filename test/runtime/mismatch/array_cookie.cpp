// Proves: mixing new[] and delete across an array cookie is reported as an
// alloc-dealloc mismatch naming the block, not as an unknown pointer, and
// the block is released. new std::string[3] then delete (or free): the
// pointer is 8 bytes into the block, past the cookie holding the count.
// new std::string then delete[]: the program reads a count in the 8 bytes
// before the block and runs that many destructors before operator delete[]
// gets the address 8 bytes before the block; with page_guard those bytes
// are the unused start of the block's page (0: no destructor runs) and the
// mismatch is reported; with page_guard_front they are the inaccessible
// page, so the count's read faults and is reported as a read 8 bytes before
// the block. The run without the bugs prints nothing.
// RUN: %mdebug_clangxx -g -O0 -Wno-mismatched-new-delete %s -o %t
// RUN: %not %t delete 2>&1 | %FileCheck %s --check-prefix=DELETE
// RUN: env MDEBUG_OPTIONS=guard=16 %not %t delete 2>&1 | %FileCheck %s --check-prefix=DELETE
// RUN: %not %t free 2>&1 | %FileCheck %s --check-prefix=FREE
// RUN: env MDEBUG_OPTIONS=page_guard %not %t delete[] 2>&1 | %FileCheck %s --check-prefix=ARRAY
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=page_guard page_guard_front" %t delete[] 2>&1 | %FileCheck %s --check-prefix=FRONT
// RUN: %t 2>&1 | count 0
// RUN: env MDEBUG_OPTIONS=page_guard %t 2>&1 | count 0
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  std::string *names = new std::string[3];
  std::string *name = new std::string("a name");
  const char *how = argc > 1 ? argv[1] : "";
  if (!strcmp(how, "delete"))
    delete names;
  else if (!strcmp(how, "free"))
    free(names);
  else
    delete[] names;
  if (!strcmp(how, "delete[]"))
    delete[] name;
  else
    delete name;
  return 0;
}
// DELETE: mdebug: ERROR: alloc-dealloc mismatch in {{.*}}
// DELETE-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 104 ALLOCATED BY operator new[] RELEASED BY operator delete
// DELETE-NEXT:   allocated by operator new[] at {{.*}}array_cookie.cpp:25:24 (main)
// DELETE-NEXT:   released by operator delete at {{.*}}array_cookie.cpp:29:5 (main)
// DELETE-NEXT:   operator delete was given 0x{{[0-9a-f]+}}, 8 bytes into the block: past the array cookie where operator new[] keeps the element count
// DELETE: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// FREE: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 104 ALLOCATED BY operator new[] RELEASED BY free
// FREE-NEXT:   allocated by operator new[] at {{.*}}array_cookie.cpp:25:24 (main)
// FREE-NEXT:   released by free at {{.*}}array_cookie.cpp:31:5 (main)
// FREE-NEXT:   free was given 0x{{[0-9a-f]+}}, 8 bytes into the block: past the array cookie where operator new[] keeps the element count
// FREE: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// ARRAY: mdebug: ERROR: alloc-dealloc mismatch in {{.*}}
// ARRAY-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 ALLOCATED BY operator new RELEASED BY operator delete[]
// ARRAY-NEXT:   allocated by operator new at {{.*}}array_cookie.cpp:26:23 (main)
// ARRAY-NEXT:   released by operator delete[] at {{.*}}array_cookie.cpp:35:5 (main)
// ARRAY-NEXT:   operator delete[] was given 0x{{[0-9a-f]+}}, 8 bytes before the block: delete[] read an element count there (no destructor ran if it was 0) and moved the pointer back over it
// ARRAY: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// FRONT: mdebug: ERROR: heap buffer overflow in {{.*}}
// FRONT-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 32 READ BEFORE ITS START
// FRONT-NEXT:   read at 0x{{[0-9a-f]+}}ff8: 8 bytes before the block
// FRONT-NEXT:   allocated by operator new at {{.*}}array_cookie.cpp:26:23 (main)
// FRONT: killed by signal 11
