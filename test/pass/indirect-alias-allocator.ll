; Proves: in a module where malloc is an alias of the module's own allocator, an indirect call of malloc's type is left alone too.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=__mdebug --implicit-check-not=mdebug_sites --implicit-check-not=mdebug.module_ctor %s

@malloc = alias ptr (i64), ptr @my_alloc

define ptr @my_alloc(i64 %n) {
  ret ptr null
}

define ptr @use(ptr %f) {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %p = call ptr %f(i64 8)
  %p = call ptr %f(i64 8)
  ret ptr %p
}
