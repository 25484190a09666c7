; Proves: a function with a rewritten call gets "frame-pointer"="all" (the runtime's fast unwinder needs it); a function without one keeps its attributes.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK: define ptr @alloc(i64 %n) #[[FP:[0-9]+]] {
define ptr @alloc(i64 %n) #0 {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

; CHECK: define i32 @pure(i32 %x) #[[NONE:[0-9]+]] {
define i32 @pure(i32 %x) #0 {
  ret i32 %x
}

declare ptr @malloc(i64)

attributes #0 = { nounwind "frame-pointer"="none" }

; CHECK-DAG: attributes #[[FP]] = { nounwind "frame-pointer"="all" }
; CHECK-DAG: attributes #[[NONE]] = { nounwind "frame-pointer"="none" }
