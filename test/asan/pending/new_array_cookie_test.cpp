// Adapted from compiler-rt test/asan/TestCases/Posix/new_array_cookie_test.cpp (a store into the array cookie, the 8 bytes before the first element that new[] keeps the count in, of new C[1] where C has a destructor).
// EXPECT: - heap buffer overflow at 17
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

struct C {
  int x;
  // The original exits here; this one only prints, so that a clean run
  // frees its block (the bug mode's cookie of 10 prints ten lines).
  ~C() { fprintf(stderr, "ZZZZZZZZ\n"); }
};

int main(int argc, char **argv) {
  C *buffer = new C[argc];
  if (argc == 1)
    buffer[-2].x = 10;
  delete[] buffer;
}
