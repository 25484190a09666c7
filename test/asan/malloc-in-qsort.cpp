// Adapted from compiler-rt test/asan/TestCases/Linux/malloc-in-qsort.cpp (a read past new int[10] allocated in a qsort callback, so the allocation's stack runs through libc's qsort).
// EXPECT: - heap buffer overflow at 31
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int *GlobalPtr;

extern "C" {
int QsortCallback(const void *a, const void *b) {
  char *x = (char *)a;
  char *y = (char *)b;
  printf("Calling QsortCallback\n");
  delete[] GlobalPtr;
  GlobalPtr = new int[10];
  for (int i = 0; i < 10; i++)
    GlobalPtr[i] = i;
  return (int)*x - (int)*y;
}

__attribute__((noinline)) void MyQsort(char *a, size_t size) {
  printf("Calling qsort\n");
  qsort(a, size, sizeof(char), QsortCallback);
  printf("Done\n"); // Avoid tail call.
}
} // extern "C"

int main(int argc, char **argv) {
  char a[2] = {1, 2};
  MyQsort(a, 2);
  int r = GlobalPtr[argc > 1 ? 9 : 10];
  delete[] GlobalPtr;
  return r != 9;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: malloc-in-qsort.cpp:31:
// CLEAN-NOT: mdebug
