// Adapted from compiler-rt test/asan/TestCases/Linux/sized_delete_test.cpp (sized delete of a 20-byte object through a pointer to a 12-byte type (scalar), and delete[] of D2[10] as D1[10] (array); the unsized forms before are correct).
// EXPECT: scalar new-delete type mismatch at 34
// EXPECT: array new-delete type mismatch at 70
// EXPECT: clean clean
// CFLAGS: -fsized-deallocation
#include <new>
#include <stdio.h>
#include <string>

inline void break_optimization(void *arg) {
  __asm__ __volatile__("" : : "r"(arg) : "memory");
}

struct S12 {
  int a, b, c;
};

struct S20 {
  int a, b, c, d, e;
};

struct D1 {
  int a, b, c;
  ~D1() { fprintf(stderr, "D1::~D1\n"); }
};

struct D2 {
  int a, b, c, d, e;
  ~D2() { fprintf(stderr, "D2::~D2\n"); }
};

void Del12(S12 *x) {
  break_optimization(x);
  delete x;
}
void Del12NoThrow(S12 *x) {
  break_optimization(x);
  operator delete(x, std::nothrow);
}
void Del12Ar(S12 *x) {
  break_optimization(x);
  delete[] x;
}
void Del12ArNoThrow(S12 *x) {
  break_optimization(x);
  operator delete[](x, std::nothrow);
}

int main(int argc, char **argv) {
  if (argc != 2) return 1;
  std::string flag = argv[1];
  // These are correct.
  Del12(new S12);
  Del12NoThrow(new S12);
  Del12Ar(new S12[100]);
  Del12ArNoThrow(new S12[100]);

  // Here we pass wrong type of pointer to delete,
  // but [] and nothrow variants of delete are not sized.
  Del12Ar(reinterpret_cast<S12 *>(new S20[100]));
  Del12NoThrow(reinterpret_cast<S12 *>(new S20));
  Del12ArNoThrow(reinterpret_cast<S12 *>(new S20[100]));
  fprintf(stderr, "OK SO FAR\n");
  if (flag == "scalar") {
    // A wrong type of pointer passed to sized delete.
    Del12(reinterpret_cast<S12 *>(new S20));
  } else if (flag == "array") {
    D1 *d1 = reinterpret_cast<D1 *>(new D2[10]);
    break_optimization(d1);
    delete[] d1;
  }
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -fsized-deallocation %s -o %t
// RUN: %not %t scalar 2>&1 | %FileCheck %s --check-prefix=M-SCALAR
// RUN: %not %t array 2>&1 | %FileCheck %s --check-prefix=M-ARRAY
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-SCALAR: mdebug: ERROR: new-delete size mismatch in
// M-SCALAR-NOT: *** ***
// M-SCALAR: sized_delete_test.cpp:34:
// M-ARRAY: mdebug: ERROR: new-delete size mismatch in
// M-ARRAY-NOT: *** ***
// M-ARRAY: sized_delete_test.cpp:70:
// CLEAN-NOT: mdebug
