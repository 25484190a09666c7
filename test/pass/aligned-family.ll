; Proves: posix_memalign, aligned_alloc, memalign, valloc, pvalloc and malloc_usable_size are rewritten (ops 5-10), keeping int and size_t results.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK-DAG: @[[POSIX:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 5, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[ALIGNED:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 6, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[MEMALIGN:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 7, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[VALLOC:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 8, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[PVALLOC:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 9, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[USABLE:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 10, i32 0, ptr null }, section "mdebug_sites"

define i64 @use(ptr %slot, i64 %n) {
; CHECK-LABEL: define i64 @use(
; CHECK-NEXT: %r = call i32 @__mdebug_posix_memalign(ptr %slot, i64 64, i64 %n, ptr @[[POSIX]])
; CHECK-NEXT: %a = call ptr @__mdebug_aligned_alloc(i64 32, i64 %n, ptr @[[ALIGNED]])
; CHECK-NEXT: %b = call ptr @__mdebug_memalign(i64 16, i64 %n, ptr @[[MEMALIGN]])
; CHECK-NEXT: %c = call ptr @__mdebug_valloc(i64 %n, ptr @[[VALLOC]])
; CHECK-NEXT: %d = call ptr @__mdebug_pvalloc(i64 %n, ptr @[[PVALLOC]])
; CHECK-NEXT: %s = call i64 @__mdebug_malloc_usable_size(ptr %a, ptr @[[USABLE]])
; CHECK-NEXT: ret i64 %s
  %r = call i32 @posix_memalign(ptr %slot, i64 64, i64 %n)
  %a = call ptr @aligned_alloc(i64 32, i64 %n)
  %b = call ptr @memalign(i64 16, i64 %n)
  %c = call ptr @valloc(i64 %n)
  %d = call ptr @pvalloc(i64 %n)
  %s = call i64 @malloc_usable_size(ptr %a)
  ret i64 %s
}

declare i32 @posix_memalign(ptr, i64, i64)
declare ptr @aligned_alloc(i64, i64)
declare ptr @memalign(i64, i64)
declare ptr @valloc(i64)
declare ptr @pvalloc(i64)
declare i64 @malloc_usable_size(ptr)

; CHECK-DAG: declare i32 @__mdebug_posix_memalign(ptr, i64, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_aligned_alloc(i64, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_memalign(i64, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_valloc(i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_pvalloc(i64, ptr){{$}}
; CHECK-DAG: declare i64 @__mdebug_malloc_usable_size(ptr, ptr){{$}}
