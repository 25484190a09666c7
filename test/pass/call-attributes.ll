; Proves: call-site function attributes (builtin, allocsize, nounwind, "alloc-family") are dropped while return and parameter attributes stay, and the __mdebug_* declarations get no attributes, so LLVM cannot treat the new calls as removable allocations.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

define ptr @use(i64 %n) {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %p = call noalias noundef ptr @__mdebug_malloc(i64 noundef %n, ptr @{{__mdebug_site[.0-9]*}}){{$}}
; CHECK-NEXT: %q = call noalias noundef nonnull ptr @__mdebug_new(i64 noundef 8, ptr @{{__mdebug_site[.0-9]*}}){{$}}
; CHECK-NEXT: call void @__mdebug_free(ptr noundef %p, ptr @{{__mdebug_site[.0-9]*}}){{$}}
  %p = call noalias noundef ptr @malloc(i64 noundef %n) #0
  %q = call noalias noundef nonnull ptr @_Znwm(i64 noundef 8) #1
  call void @free(ptr noundef %p) #2
  ret ptr %q
}

declare noalias ptr @malloc(i64) #3
declare noalias nonnull ptr @_Znwm(i64) #4
declare void @free(ptr nocapture) #5

; CHECK-DAG: declare ptr @__mdebug_malloc(i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new(i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_free(ptr, ptr){{$}}

attributes #0 = { builtin allocsize(0) nounwind "alloc-family"="malloc" }
attributes #1 = { builtin allocsize(0) }
attributes #2 = { builtin nounwind "alloc-family"="malloc" }
attributes #3 = { nounwind allocsize(0) "alloc-family"="malloc" }
attributes #4 = { nobuiltin allocsize(0) }
attributes #5 = { nounwind "alloc-family"="malloc" }
