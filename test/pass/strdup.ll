; Proves: strdup and strndup are rewritten (ops 11, 12).
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK-DAG: @[[STRDUP:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 11, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[STRNDUP:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 12, i32 0, ptr null }, section "mdebug_sites"

define ptr @copy(ptr %s, i64 %n) {
; CHECK-LABEL: define ptr @copy(
; CHECK-NEXT: %a = call ptr @__mdebug_strdup(ptr %s, ptr @[[STRDUP]])
; CHECK-NEXT: %b = call ptr @__mdebug_strndup(ptr %a, i64 %n, ptr @[[STRNDUP]])
; CHECK-NEXT: ret ptr %b
  %a = call ptr @strdup(ptr %s)
  %b = call ptr @strndup(ptr %a, i64 %n)
  ret ptr %b
}

declare ptr @strdup(ptr)
declare ptr @strndup(ptr, i64)

; CHECK-DAG: declare ptr @__mdebug_strdup(ptr, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_strndup(ptr, i64, ptr){{$}}
