// Proves: vm_threshold: when the virtual size reaches the threshold, one
// line says so, a heap dump is written to PREFIX.PID.vm.1.txt (a valid dump,
// its extension listing the mappings) and the top sites by bytes are
// logged, the mmap that grew first; nothing more while the size stays
// above; once it has fallen 10% below, the next crossing is reported again
// (PREFIX.PID.vm.2.txt). mdebug's 512 GiB heap reservation is left out: a
// threshold of 1 GiB is not crossed at start-up. The clean case stays
// below the threshold: nothing.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="vm_threshold=1073741824 backtrace_dump_prefix=%t.dir/dump" %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/dump.*.vm.1.txt | %FileCheck %s --check-prefix=DUMP
// RUN: ls %t.dir | %FileCheck %s --check-prefix=FILES
// RUN: env MDEBUG_OPTIONS="vm_threshold=4294967296 backtrace_dump_prefix=%t.dir/clean" %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <sys/mman.h>

#define CHUNK ((size_t)128 << 20)

static void *chunks[12];

static void grow(void) {
  for (int i = 0; i < 12; i++) {
    chunks[i] = mmap(NULL, CHUNK, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    fprintf(stderr, "mapped %d\n", i);
  }
}

int main(void) {
  grow();
  for (int i = 0; i < 12; i++)
    munmap(chunks[i], CHUNK);
  fprintf(stderr, "unmapped\n");
  grow();
  for (int i = 0; i < 12; i++)
    munmap(chunks[i], CHUNK);
  fprintf(stderr, "done\n");
  return 0;
}
// CHECK: mapped 6
// CHECK-NEXT: mdebug: vm_threshold: the virtual size reached {{[0-9]+}} bytes (threshold 1073741824; mdebug's unused heap reservation left out)
// CHECK-NEXT: mdebug: Dumping to file: {{.*}}dump.[[PID:[0-9]+]].vm.1.txt
// CHECK-NEXT: mdebug: top sites: by category: heap blocks {{[0-9]+}} bytes in {{[0-9]+}} blocks; mappings 1073741824 bytes in 8 mappings; thread stacks 0 bytes in 0 stacks
// CHECK-NEXT: mdebug: top sites:   1073741824 bytes in 8 mappings by mmap at {{.*}}vm_cross.c:24:17 (grow)
// CHECK-NOT: vm_threshold
// CHECK: mapped 7
// CHECK-NOT: vm_threshold
// CHECK: unmapped
// CHECK: mapped 6
// CHECK-NEXT: mdebug: vm_threshold: the virtual size reached {{[0-9]+}} bytes (threshold 1073741824; mdebug's unused heap reservation left out)
// CHECK-NEXT: mdebug: Dumping to file: {{.*}}dump.[[PID]].vm.2.txt
// CHECK-NOT: vm_threshold
// CHECK: done
// CHECK-NOT: vm_threshold
//
// DUMP: mdebug total mappings bytes 1073741824 count 8
// DUMP: mdebug site mappings bytes 1073741824 count 8 by mmap at {{.*}}vm_cross.c:24:17 (grow)
// DUMP: heap dump OK
//
// FILES: dump.{{[0-9]+}}.vm.1.txt
// FILES-NEXT: dump.{{[0-9]+}}.vm.2.txt
// FILES-NOT: dump
//
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
