; Proves: calls of an allocator defined in the module itself (a user allocator, not libc's) are left alone: only declared callees are rewritten.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=__mdebug --implicit-check-not=mdebug_sites --implicit-check-not=mdebug.module_ctor %s

define ptr @malloc(i64 %n) {
  ret ptr null
}

define ptr @use() {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %p = call ptr @malloc(i64 8)
  %p = call ptr @malloc(i64 8)
  ret ptr %p
}
