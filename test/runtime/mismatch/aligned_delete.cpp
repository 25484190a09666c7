// Proves: every mismatched pair of compiler-rt's
// test/asan/TestCases/Linux/aligned_delete_test.cpp is reported at its
// delete: aligned operator new (new of an over-aligned type) released by a
// plain delete (nothrow, sized, array forms), plain new released by an
// aligned delete, both as alloc-dealloc mismatches naming the aligned
// operator and the alignments; aligned new and aligned delete told another
// alignment (256 vs 128, and 1024 vs 512, which ASan cannot tell apart) as
// a new-delete alignment mismatch; with -fsized-deallocation the size is
// checked too. Each block is released (no leak). Built without the plugin
// and run with the runtime preloaded, the same reports come (without
// sites). The run without the bugs (every matched form) prints nothing.
// RUN: %mdebug_clangxx -g -O0 -std=c++17 -fno-sized-deallocation %s -o %t
// RUN: %not %t bug 2>&1 | %FileCheck %s --check-prefixes=CHECK,SITES,UNSIZED
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clangxx -g -O0 -std=c++17 -fsized-deallocation %s -o %t.sized
// RUN: %not %t.sized bug 2>&1 | %FileCheck %s --check-prefixes=CHECK,SITES,SIZED
// RUN: %t.sized 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %clangxx -g -O0 -std=c++17 -fno-sized-deallocation %s -o %t.plain
// RUN: %not env LD_PRELOAD=%mdebug_rt_so %t.plain bug 2>&1 | %FileCheck %s --check-prefixes=CHECK,UNSIZED
// RUN: env LD_PRELOAD=%mdebug_rt_so %t.plain 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
#include <cstddef>
#include <new>

// <new> declares the sized forms only with -fsized-deallocation.
void operator delete(void *, std::size_t) noexcept;
void operator delete[](void *, std::size_t) noexcept;
void operator delete(void *, std::size_t, std::align_val_t) noexcept;
void operator delete[](void *, std::size_t, std::align_val_t) noexcept;

struct S12 { int a, b, c; };
struct alignas(128) S12_128 { int a, b, c; };
struct alignas(256) S12_256 { int a, b, c; };
struct alignas(512) S1024_512 { char a[1024]; };
struct alignas(1024) S1024_1024 { char a[1024]; };

template <typename T> static T *opaque(T *p) {
  __asm__ __volatile__("" : : "r"(p) : "memory");
  return p;
}

// Every form, each with its own partner: nothing to report.
static void matched() {
  delete opaque(new S12);
  delete[] opaque(new S12[4]);
  delete opaque(new S12_256);
  delete[] opaque(new S12_256[4]);
  delete opaque(new S1024_1024);
  ::operator delete(::operator new(24, std::nothrow), std::nothrow);
  ::operator delete[](::operator new[](24, std::nothrow), std::nothrow);
  ::operator delete(::operator new(24), 24);
  ::operator delete[](::operator new[](24), 24);
  std::align_val_t a64{64}, a16{16};
  ::operator delete(::operator new(24, a64), a64);
  ::operator delete[](::operator new[](24, a64), a64);
  ::operator delete(::operator new(24, a64, std::nothrow), a64, std::nothrow);
  ::operator delete[](::operator new[](24, a64, std::nothrow), a64,
                      std::nothrow);
  ::operator delete(::operator new(24, a64), 24, a64);
  ::operator delete[](::operator new[](24, a64), 24, a64);
  ::operator delete(::operator new(24, a16), a16);
}

int main(int argc, char **argv) {
  matched();
  if (argc < 2)
    return 0;

  operator delete(opaque(new S12_128), std::nothrow);
  // CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}}
  // CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 128 ALLOCATED BY aligned operator new RELEASED BY operator delete
  // SITES-NEXT: allocated by aligned operator new at {{.*}}aligned_delete.cpp:[[@LINE-3]]:26 (main)
  // SITES-NEXT: released by operator delete at {{.*}}aligned_delete.cpp:[[@LINE-4]]:3 (main)
  // CHECK: the block was allocated aligned to 128 bytes; operator delete releases default-aligned blocks: deleted through a pointer to a type of another alignment?

  operator delete(opaque(new S12_128), sizeof(S12_128));
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 128 ALLOCATED BY aligned operator new RELEASED BY operator delete
  // SITES-NEXT: allocated by aligned operator new at {{.*}}aligned_delete.cpp:[[@LINE-2]]:26 (main)
  // SITES-NEXT: released by operator delete at {{.*}}aligned_delete.cpp:[[@LINE-3]]:3 (main)
  // CHECK: the block was allocated aligned to 128 bytes; operator delete releases default-aligned blocks

  operator delete[](opaque(new S12_128[100]), std::nothrow);
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 12800 ALLOCATED BY aligned operator new[] RELEASED BY operator delete[]
  // SITES-NEXT: allocated by aligned operator new[] at {{.*}}aligned_delete.cpp:[[@LINE-2]]:28 (main)
  // SITES-NEXT: released by operator delete[] at {{.*}}aligned_delete.cpp:[[@LINE-3]]:3 (main)
  // CHECK: the block was allocated aligned to 128 bytes; operator delete[] releases default-aligned blocks

  operator delete[](opaque(new S12_128[100]), sizeof(S12_128[100]));
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 12800 ALLOCATED BY aligned operator new[] RELEASED BY operator delete[]
  // SITES-NEXT: allocated by aligned operator new[] at {{.*}}aligned_delete.cpp:[[@LINE-2]]:28 (main)
  // SITES-NEXT: released by operator delete[] at {{.*}}aligned_delete.cpp:[[@LINE-3]]:3 (main)

  // Various mismatched alignments.

  delete opaque(reinterpret_cast<S12 *>(new S12_256));
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 256 ALLOCATED BY aligned operator new RELEASED BY operator delete
  // SITES-NEXT: allocated by aligned operator new at {{.*}}aligned_delete.cpp:[[@LINE-2]]:41 (main)
  // SITES-NEXT: released by operator delete at {{.*}}aligned_delete.cpp:[[@LINE-3]]:3 (main)
  // CHECK: the block was allocated aligned to 256 bytes; operator delete releases default-aligned blocks

  delete opaque(reinterpret_cast<S12_256 *>(new S12));
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 12 ALLOCATED BY operator new RELEASED BY aligned operator delete
  // SITES-NEXT: allocated by operator new at {{.*}}aligned_delete.cpp:[[@LINE-2]]:45 (main)
  // SITES-NEXT: released by aligned operator delete at {{.*}}aligned_delete.cpp:[[@LINE-3]]:3 (main)
  // CHECK: the block was allocated default-aligned; aligned operator delete releases blocks from aligned operator new: deleted through a pointer to a type of another alignment?

  delete opaque(reinterpret_cast<S12_128 *>(new S12_256));
  // SIZED: mdebug: ERROR: new-delete size mismatch in {{.*}}
  // SIZED-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 256 RELEASED WITH SIZE 128 (aligned operator delete)
  // CHECK: mdebug: ERROR: new-delete alignment mismatch in {{.*}}
  // CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 256 ALIGNED TO 256 RELEASED WITH ALIGNMENT 128 (aligned operator delete)
  // SITES-NEXT: allocated by aligned operator new at {{.*}}aligned_delete.cpp:[[@LINE-5]]:45 (main)
  // SITES-NEXT: released by aligned operator delete at {{.*}}aligned_delete.cpp:[[@LINE-6]]:3 (main)
  // CHECK: the block was allocated aligned to 256 bytes; aligned operator delete was told 128: deleted through a pointer to a type of another alignment?

  delete[] opaque(reinterpret_cast<S12 *>(new S12_256[100]));
  // CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}}
  // CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 25600 ALLOCATED BY aligned operator new[] RELEASED BY operator delete[]
  // SITES-NEXT: allocated by aligned operator new[] at {{.*}}aligned_delete.cpp:[[@LINE-3]]:43 (main)
  // SITES-NEXT: released by operator delete[] at {{.*}}aligned_delete.cpp:[[@LINE-4]]:3 (main)
  // CHECK: the block was allocated aligned to 256 bytes; operator delete[] releases default-aligned blocks

  delete[] opaque(reinterpret_cast<S12_256 *>(new S12[100]));
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1200 ALLOCATED BY operator new[] RELEASED BY aligned operator delete[]
  // SITES-NEXT: allocated by operator new[] at {{.*}}aligned_delete.cpp:[[@LINE-2]]:47 (main)
  // SITES-NEXT: released by aligned operator delete[] at {{.*}}aligned_delete.cpp:[[@LINE-3]]:3 (main)
  // CHECK: the block was allocated default-aligned; aligned operator delete[] releases blocks from aligned operator new

  delete[] opaque(reinterpret_cast<S12_128 *>(new S12_256[100]));
  // CHECK: mdebug: ERROR: new-delete alignment mismatch in {{.*}}
  // CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 25600 ALIGNED TO 256 RELEASED WITH ALIGNMENT 128 (aligned operator delete[])
  // SITES-NEXT: allocated by aligned operator new[] at {{.*}}aligned_delete.cpp:[[@LINE-3]]:47 (main)
  // SITES-NEXT: released by aligned operator delete[] at {{.*}}aligned_delete.cpp:[[@LINE-4]]:3 (main)

  // ASan cannot tell alignments above 512 apart; mdebug keeps the exact one.
  delete opaque(reinterpret_cast<S1024_512 *>(new S1024_1024));
  // CHECK: mdebug: ERROR: new-delete alignment mismatch in {{.*}}
  // CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1024 ALIGNED TO 1024 RELEASED WITH ALIGNMENT 512 (aligned operator delete)
  // SITES-NEXT: allocated by aligned operator new at {{.*}}aligned_delete.cpp:[[@LINE-3]]:47 (main)
  // SITES-NEXT: released by aligned operator delete at {{.*}}aligned_delete.cpp:[[@LINE-4]]:3 (main)

  // The nothrow aligned forms, called directly.
  std::align_val_t a64{64};
  operator delete(operator new(24, a64, std::nothrow));
  // CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}}
  // CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 ALLOCATED BY aligned operator new RELEASED BY operator delete
  // SITES-NEXT: allocated by aligned operator new at {{.*}}aligned_delete.cpp:[[@LINE-3]]:19 (main)
  operator delete(operator new(24), a64, std::nothrow);
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 ALLOCATED BY operator new RELEASED BY aligned operator delete
  // SITES-NEXT: allocated by operator new at {{.*}}aligned_delete.cpp:[[@LINE-2]]:19 (main)
  operator delete[](operator new[](24, a64, std::nothrow), std::nothrow);
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 ALLOCATED BY aligned operator new[] RELEASED BY operator delete[]
  operator delete[](operator new[](24, std::nothrow), a64, std::nothrow);
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 ALLOCATED BY operator new[] RELEASED BY aligned operator delete[]
  operator delete(operator new(24, std::align_val_t{128}), 24, a64);
  // CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 ALIGNED TO 128 RELEASED WITH ALIGNMENT 64 (aligned operator delete)
  return 0;
}
// UNSIZED: mdebug: SUMMARY: 16 errors (12 alloc-dealloc mismatch, 4 new-delete alignment mismatch), 0 bytes leaked in 0 blocks
// SIZED: mdebug: SUMMARY: 17 errors (12 alloc-dealloc mismatch, 1 new-delete size mismatch, 4 new-delete alignment mismatch), 0 bytes leaked in 0 blocks
