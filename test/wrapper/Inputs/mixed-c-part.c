/* The C half of mixed-c-cxx.cpp: a C allocation the C++ side frees. */
#include <stdlib.h>

char *c_make(unsigned n) { return malloc(n); }
