; Proves: an indirect call through a pointer of malloc's, calloc's, realloc's or free's exact type gets a site without changing what it calls: when the pointer is the allocator itself it goes to __mdebug_<name> with the call's site, otherwise the original call runs unchanged, its result through a phi; other types (a pointer of malloc's type returning i32, a variadic one) and musttail calls are left alone.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

@hook = external global ptr

define ptr @use(ptr %f, i64 %n) {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %mdebug.isalloc = icmp eq ptr %f, @malloc
; CHECK-NEXT: br i1 %mdebug.isalloc, label %[[SITE:[0-9]+]], label %[[PLAIN:[0-9]+]]
; CHECK: [[SITE]]:
; CHECK-NEXT: %[[R1:[0-9]+]] = call ptr @__mdebug_malloc(i64 %n, ptr @__mdebug_site)
; CHECK-NEXT: br label %[[JOIN:[0-9]+]]
; CHECK: [[PLAIN]]:
; CHECK-NEXT: %a = call ptr %f(i64 %n)
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %[[R:[0-9]+]] = phi ptr [ %[[R1]], %[[SITE]] ], [ %a, %[[PLAIN]] ]
; CHECK-NEXT: %g = load ptr, ptr @hook
; CHECK-NEXT: %mdebug.isalloc1 = icmp eq ptr %g, @free
; CHECK: call void @__mdebug_free(ptr %[[R]], ptr @__mdebug_site.{{[0-9]+}})
; CHECK: call void %g(ptr %[[R]])
  %a = call ptr %f(i64 %n)
  %g = load ptr, ptr @hook
  call void %g(ptr %a)
  ret ptr %a
}

define ptr @others(ptr %c, ptr %r, ptr %p, i64 %n) {
; CHECK-LABEL: define ptr @others(
; CHECK: icmp eq ptr %c, @calloc
; CHECK: call ptr @__mdebug_calloc(i64 %n, i64 8, ptr @__mdebug_site.{{[0-9]+}})
; CHECK: %a = call ptr %c(i64 %n, i64 8)
; CHECK: icmp eq ptr %r, @realloc
; CHECK: call ptr @__mdebug_realloc(ptr %p, i64 %n, ptr @__mdebug_site.{{[0-9]+}})
; CHECK: %b = call ptr %r(ptr %p, i64 %n)
  %a = call ptr %c(i64 %n, i64 8)
  %b = call ptr %r(ptr %p, i64 %n)
  ret ptr %b
}

define i32 @not_allocators(ptr %f, i64 %n) {
; CHECK-LABEL: define i32 @not_allocators(
; CHECK-NEXT: %i = call i32 %f(i64 %n)
; CHECK-NEXT: %v = call ptr (i64, ...) %f(i64 %n)
; CHECK-NEXT: ret i32 %i
  %i = call i32 %f(i64 %n)
  %v = call ptr (i64, ...) %f(i64 %n)
  ret i32 %i
}

define ptr @tail(i64 %n) {
; CHECK-LABEL: define ptr @tail(
; CHECK-NEXT: %f = load ptr, ptr @hook
; CHECK-NEXT: %a = musttail call ptr %f(i64 %n)
; CHECK-NEXT: ret ptr %a
  %f = load ptr, ptr @hook
  %a = musttail call ptr %f(i64 %n)
  ret ptr %a
}
