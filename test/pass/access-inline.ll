; Proves: a lookup probes the thread's cache of answers inline (access.h: __mdebug_access_cache, index (p >> 5) & 2047, 32-byte entries: the entry's offset is p & (2047 << 5), a hit when start <= p, p <= end and *word == value) and calls __mdebug_access_miss, the lookup that does not probe again, only when the probe misses (it, and the failure path, nonlazybind: bound at load, never through a lazy PLT entry); pointers outside the heap are answered from the cache too, so no test of the heap's range comes first.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-access -S %s | %FileCheck %s

; CHECK: @__mdebug_access_cache = external thread_local(initialexec) global ptr
define i32 @get(ptr %p) {
; CHECK-LABEL: define i32 @get(
; CHECK-NEXT: %[[T:.+]] = alloca i32
; CHECK-NEXT: %[[X:[0-9]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT: %[[C:[0-9]+]] = load ptr, ptr @__mdebug_access_cache, align 8, !mdebug.check
; CHECK-NEXT: %[[IDX:[0-9]+]] = and i64 %[[X]], 65504
; CHECK-NEXT: %[[E:[0-9]+]] = getelementptr inbounds i8, ptr %[[C]], i64 %[[IDX]]
; CHECK: %[[S:[0-9]+]] = load i64, ptr {{.*}}, align 8, !mdebug.check
; CHECK: %[[END:[0-9]+]] = load i64, ptr {{.*}}, align 8, !mdebug.check
; CHECK: %[[W:[0-9]+]] = load ptr, ptr {{.*}}, align 8, !mdebug.check
; CHECK: %[[V:[0-9]+]] = load i64, ptr {{.*}}, align 8, !mdebug.check
; CHECK-NEXT: %[[BELOW:[0-9]+]] = icmp ult i64 %[[X]], %[[S]]
; CHECK-NEXT: %[[ABOVE:[0-9]+]] = icmp ugt i64 %[[X]], %[[END]]
; CHECK-NEXT: %[[OUT:[0-9]+]] = or i1 %[[BELOW]], %[[ABOVE]]
; CHECK-NEXT: br i1 %[[OUT]], label %mdebug.lookup, label %mdebug.hit
; CHECK: mdebug.hit:
; CHECK-NEXT: %[[NOW:[0-9]+]] = load atomic i64, ptr %[[W]] unordered, align 8, !mdebug.check
; CHECK-NEXT: %[[SAME:[0-9]+]] = icmp eq i64 %[[NOW]], %[[V]]
; CHECK-NEXT: br i1 %[[SAME]], label %mdebug.looked, label %mdebug.lookup
; CHECK: mdebug.lookup:
; CHECK-NEXT: call preserve_mostcc <2 x i64> @__mdebug_access_miss(ptr %p)
; CHECK: br label %mdebug.looked
; CHECK: mdebug.looked:
; CHECK-DAG: phi i64 [ %[[V]], %mdebug.hit ], [ %{{.*}}, %mdebug.lookup ]
; CHECK-DAG: phi ptr [ %[[W]], %mdebug.hit ], [ %{{.*}}, %mdebug.lookup ]
; CHECK-DAG: %[[PE:[0-9]+]] = phi i64 [ %[[END]], %mdebug.hit ], [ %{{.*}}, %mdebug.lookup ]
; CHECK-DAG: phi i64 [ %[[S]], %mdebug.hit ], [ %{{.*}}, %mdebug.lookup ]
; CHECK: icmp ugt i64 %{{.*}}, %[[PE]]
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %p, ptr %p, i64 4,
; CHECK: %x = load i32, ptr %p
  %t = alloca i32
  %x = load i32, ptr %p
  store i32 %x, ptr %t
  ret i32 %x
}

; The lookups keep every register but r11: from a shared library they are
; called through the GOT, bound at load, never through a lazy PLT entry
; (the dynamic linker's resolver does not keep r10).
; CHECK: declare preserve_mostcc <2 x i64> @__mdebug_access_miss(ptr) #[[NLB:[0-9]+]]
; CHECK: declare preserve_mostcc void @__mdebug_access_fail(ptr, ptr, i64, ptr) #[[NLB]]
; CHECK: attributes #[[NLB]] = { nonlazybind }
