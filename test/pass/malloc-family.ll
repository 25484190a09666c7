; Proves: malloc, calloc, realloc, reallocarray and free become __mdebug_* calls with the same arguments plus a site (ops 0-4).
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK-DAG: @[[MALLOC:__mdebug_site[.0-9]*]] = private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 {{-?[0-9]+}}, ptr @{{.*}}, ptr @{{.*}}, i32 0, i32 0, i32 0, i32 0, ptr null }, section "mdebug_sites", align 8
; CHECK-DAG: @[[CALLOC:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 1, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[REALLOC:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 2, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[REALLOCARRAY:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 3, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[FREE:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 4, i32 0, ptr null }, section "mdebug_sites"

define void @use(i64 %n, ptr %old) {
; CHECK-LABEL: define void @use(
; CHECK-NEXT: %a = call ptr @__mdebug_malloc(i64 %n, ptr @[[MALLOC]])
; CHECK-NEXT: %b = call ptr @__mdebug_calloc(i64 %n, i64 4, ptr @[[CALLOC]])
; CHECK-NEXT: %c = call ptr @__mdebug_realloc(ptr %old, i64 %n, ptr @[[REALLOC]])
; CHECK-NEXT: %d = call ptr @__mdebug_reallocarray(ptr %c, i64 %n, i64 8, ptr @[[REALLOCARRAY]])
; CHECK-NEXT: call void @__mdebug_free(ptr %a, ptr @[[FREE]])
; CHECK-NEXT: call void @__mdebug_free(ptr %d, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: store ptr %b, ptr %old
; CHECK-NEXT: ret void
  %a = call ptr @malloc(i64 %n)
  %b = call ptr @calloc(i64 %n, i64 4)
  %c = call ptr @realloc(ptr %old, i64 %n)
  %d = call ptr @reallocarray(ptr %c, i64 %n, i64 8)
  call void @free(ptr %a)
  call void @free(ptr %d)
  store ptr %b, ptr %old
  ret void
}

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare ptr @reallocarray(ptr, i64, i64)
declare void @free(ptr)

; CHECK-DAG: declare ptr @__mdebug_malloc(i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_calloc(i64, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_realloc(ptr, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_reallocarray(ptr, i64, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_free(ptr, ptr){{$}}
