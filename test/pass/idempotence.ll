; Proves: running the pass twice (-passes=mdebug,mdebug, or -fplugin= plus -fpass-plugin=) rewrites each call once: same sites, same calls, one constructor.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug,mdebug -S %s | %FileCheck %s

; CHECK-COUNT-3: section "mdebug_sites"
; CHECK-NOT: section "mdebug_sites"
; CHECK: @llvm.compiler.used = appending global [3 x ptr]
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }]

define void @use(i64 %n) {
; CHECK-LABEL: define void @use(
; CHECK-NEXT: %p = call ptr @__mdebug_malloc(i64 %n, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: %q = call ptr @__mdebug_strdup(ptr %p, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: call void @__mdebug_free(ptr %p, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: ret void
  %p = call ptr @malloc(i64 %n)
  %q = call ptr @strdup(ptr %p)
  call void @free(ptr %p)
  ret void
}

declare ptr @malloc(i64)
declare ptr @strdup(ptr)
declare void @free(ptr)

; CHECK-COUNT-1: define internal void @mdebug.module_ctor()
; CHECK-NOT: define internal void @mdebug.module_ctor()
