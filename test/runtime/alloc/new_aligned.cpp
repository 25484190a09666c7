// Proves: new of over-aligned types (alignas(64), alignas(4096), and arrays
// of them) uses the aligned operator new and gets exactly that alignment;
// the blocks delete cleanly, and a leaked one is reported by aligned operator new
// with its site.
// RUN: %mdebug_clangxx -g -std=c++17 %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <cstdint>
#include <cstdio>

struct alignas(64) Line {
  char bytes[64];
};
struct alignas(4096) Page {
  char bytes[100];
};

static bool aligned(const void *p, std::size_t a) {
  return reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

int main(int argc, char **argv) {
  Line *line = new Line;
  Line *lines = new Line[3];
  Page *page = new Page;
  Page *pages = new Page[2];
  std::fprintf(stderr, "aligned: %d %d %d %d\n", aligned(line, 64),
               aligned(lines, 64), aligned(page, 4096), aligned(pages, 4096));
  delete line;
  delete[] lines;
  delete[] pages;
  if (argc > 1)
    delete page;
  return 0;
}
// CHECK: aligned: 1 1 1 1
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 4096 bytes leaked in 1 block
// CHECK-NEXT: 4096 bytes in 1 block:
// CHECK-NEXT:   allocated by aligned operator new at {{.*}}new_aligned.cpp:25:16 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 4096 at 0x{{[0-9a-f]+}}000 (leak 1 of 1)
// CHECK: mdebug: SUMMARY: 0 errors, 4096 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: aligned: 1 1 1 1
// CLEAN-NOT: mdebug
