; Proves: an invoke of operator new stays an invoke of __mdebug_new with the same normal and unwind destinations, operand bundles and calling convention; the landing pad is untouched.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

define ptr @make(i64 %n) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define ptr @make(
; CHECK-NEXT: entry:
; CHECK-NEXT: %p = invoke ptr @__mdebug_new(i64 %n, ptr @{{__mdebug_site[.0-9]*}}) [ "mdebug.test"(i32 7) ]
; CHECK-NEXT: to label %ok unwind label %lpad
; CHECK: ok:
; CHECK-NEXT: %q = invoke fastcc ptr @__mdebug_new_array(i64 %n, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: to label %done unwind label %lpad
; CHECK: done:
; CHECK-NEXT: ret ptr %p
; CHECK: lpad:
; CHECK-NEXT: %lp = landingpad { ptr, i32 }
; CHECK-NEXT: cleanup
; CHECK-NEXT: resume { ptr, i32 } %lp
entry:
  %p = invoke ptr @_Znwm(i64 %n) [ "mdebug.test"(i32 7) ]
          to label %ok unwind label %lpad
ok:
  %q = invoke fastcc ptr @_Znam(i64 %n)
          to label %done unwind label %lpad
done:
  ret ptr %p
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %lp
}

declare ptr @_Znwm(i64)
declare fastcc ptr @_Znam(i64)
declare i32 @__gxx_personality_v0(...)
