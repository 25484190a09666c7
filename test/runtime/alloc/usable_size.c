// Proves: with the default options malloc_usable_size(p) is exactly the
// requested size, so a program may use all of it, and one byte more is
// caught by the rear guard.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  static const size_t sizes[] = {1, 10, 100, 4097, 100000};
  for (int i = 0; i < 5; i++) {
    char *p = malloc(sizes[i]);
    size_t usable = malloc_usable_size(p);
    fprintf(stderr, "malloc(%zu): usable %zu\n", sizes[i], usable);
    memset(p, 'u', usable + (argc == 1 && i == 2));
    free(p);
  }
  return 0;
}
// CHECK: malloc(1): usable 1
// CHECK-NEXT: malloc(10): usable 10
// CHECK-NEXT: malloc(100): usable 100
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 100 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[100] = 0x75 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}usable_size.c:15:15 (main)
// CHECK-NEXT:   detected by free at {{.*}}usable_size.c:19:5 (main)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: malloc(4097): usable 4097
// CHECK-NEXT: malloc(100000): usable 100000
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: malloc(1): usable 1
// CLEAN-NEXT: malloc(10): usable 10
// CLEAN-NEXT: malloc(100): usable 100
// CLEAN-NEXT: malloc(4097): usable 4097
// CLEAN-NEXT: malloc(100000): usable 100000
// CLEAN-NOT: mdebug
