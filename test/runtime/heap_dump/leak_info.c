// Proves: get_malloc_leak_info hands out malloc debug's layout: entries of
// info_size = 2 * sizeof(size_t) + backtrace_size * sizeof(uintptr_t)
// bytes, overall_size = entries * info_size, sorted by size (descending),
// one per size and stack with its count, frames zero-padded and equal to
// what malloc_backtrace returns for a block of the entry, total_memory the
// sum of size * allocations; free_malloc_leak_info releases it quietly.
// RUN: %mdebug_clang -O1 -g -I%mdebug_include %s -o %t
// RUN: env MDEBUG_OPTIONS="backtrace=8" %t 2>&1 | %FileCheck %s
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *small[3], *big;
__attribute__((noinline)) void *make(size_t n) { return malloc(n); }

int main(void) {
  for (int i = 0; i < 3; i++)
    small[i] = make(64);
  big = make(50000);
  uint8_t *info;
  size_t overall, info_size, total, bt_size;
  get_malloc_leak_info(&info, &overall, &info_size, &total, &bt_size);
  printf("backtrace_size %zu info_size %zu entries %zu rest %zu\n", bt_size,
         info_size, overall / info_size, overall % info_size);
  size_t sum = 0, last = (size_t)-1;
  for (size_t off = 0; off < overall; off += info_size) {
    size_t size, count;
    uintptr_t frames[8];
    memcpy(&size, info + off, sizeof(size));
    memcpy(&count, info + off + sizeof(size_t), sizeof(count));
    memcpy(frames, info + off + 2 * sizeof(size_t), sizeof(frames));
    size_t n = 0;
    while (n < bt_size && frames[n])
      n++;
    int padded = 1;
    for (size_t k = n; k < bt_size; k++)
      padded &= frames[k] == 0;
    sum += size * count;
    printf("entry size %zu allocations %zu frames %zu%s%s\n", size, count, n,
           padded ? "" : " NOT ZERO-PADDED", size > last ? " OUT OF ORDER" : "");
    last = size;
    void *sample = size == 64 ? small[0] : size == 50000 ? big : NULL;
    if (sample) {
      uintptr_t want[8] = {0};
      ssize_t got = malloc_backtrace(sample, want, 8);
      printf("  malloc_backtrace: %zd frames, %s\n", got,
             got == (ssize_t)n && memcmp(want, frames, sizeof(frames)) == 0
                 ? "same as the entry" : "DIFFERENT");
    }
  }
  printf("total_memory %s\n", total == sum ? "is the sum" : "WRONG");
  free_malloc_leak_info(info);
  printf("freed\n");
  return 0;
}
// CHECK: backtrace_size 8 info_size 80 entries {{[0-9]+}} rest 0
// CHECK-NEXT: entry size 50000 allocations 1 frames 3{{$}}
// CHECK-NEXT:   malloc_backtrace: 3 frames, same as the entry
// CHECK: entry size 64 allocations 3 frames 3{{$}}
// CHECK-NEXT:   malloc_backtrace: 3 frames, same as the entry
// CHECK-NOT: entry {{.*}} frames 3
// CHECK: total_memory is the sum
// CHECK-NEXT: freed
// CHECK-NOT: mdebug
