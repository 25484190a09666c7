// Adapted from compiler-rt test/asan/TestCases/small_memcpy_test.cpp (a 64-byte memcpy into a heap block of the first argument's size; the original poisoned a stack array between the two arguments).
// EXPECT: 8,24 heap buffer overflow at 23
// EXPECT: 16,32 heap buffer overflow at 23
// EXPECT: 24,40 heap buffer overflow at 23
// EXPECT: 32,48 heap buffer overflow at 23
// EXPECT: 40,56 heap buffer overflow at 23
// EXPECT: 48,64 heap buffer overflow at 23
// EXPECT: 64,64 clean
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  assert(argc == 3);
  size_t poison_from = atoi(argv[1]);
  size_t poison_to = atoi(argv[2]);
  assert(poison_from <= poison_to);
  char *A1 = (char *)malloc(poison_from);
  char A2[64];
  memset(A2, 1, sizeof(A2));
  fprintf(stderr, "%zd %zd\n", poison_from, poison_to - poison_from);
  memcpy(A1, A2, sizeof(A2)); __asm__ volatile("" : : "r"(A1) : "memory");
  free(A1);
  return 0;
}
