; Proves: every operator new form (plain, array, nothrow, aligned, aligned nothrow; ops 13-20) becomes its __mdebug_new* entry point.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

%"struct.std::nothrow_t" = type { i8 }
@_ZSt7nothrow = external global %"struct.std::nothrow_t"

; CHECK-DAG: @[[NEW:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 13, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWA:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 14, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWNT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 15, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWANT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 16, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWAL:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 17, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWAAL:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 18, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWALNT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 19, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[NEWAALNT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 20, i32 0, ptr null }, section "mdebug_sites"

define void @news(i64 %n, ptr %out) {
; CHECK-LABEL: define void @news(
; CHECK-NEXT: %a = call ptr @__mdebug_new(i64 %n, ptr @[[NEW]])
; CHECK-NEXT: %b = call ptr @__mdebug_new_array(i64 %n, ptr @[[NEWA]])
; CHECK-NEXT: %c = call ptr @__mdebug_new_nothrow(i64 %n, ptr @_ZSt7nothrow, ptr @[[NEWNT]])
; CHECK-NEXT: %d = call ptr @__mdebug_new_array_nothrow(i64 %n, ptr @_ZSt7nothrow, ptr @[[NEWANT]])
; CHECK-NEXT: %e = call ptr @__mdebug_new_aligned(i64 %n, i64 64, ptr @[[NEWAL]])
; CHECK-NEXT: %f = call ptr @__mdebug_new_array_aligned(i64 %n, i64 64, ptr @[[NEWAAL]])
; CHECK-NEXT: %g = call ptr @__mdebug_new_aligned_nothrow(i64 %n, i64 64, ptr @_ZSt7nothrow, ptr @[[NEWALNT]])
; CHECK-NEXT: %h = call ptr @__mdebug_new_array_aligned_nothrow(i64 %n, i64 64, ptr @_ZSt7nothrow, ptr @[[NEWAALNT]])
  %a = call ptr @_Znwm(i64 %n)
  %b = call ptr @_Znam(i64 %n)
  %c = call ptr @_ZnwmRKSt9nothrow_t(i64 %n, ptr @_ZSt7nothrow)
  %d = call ptr @_ZnamRKSt9nothrow_t(i64 %n, ptr @_ZSt7nothrow)
  %e = call ptr @_ZnwmSt11align_val_t(i64 %n, i64 64)
  %f = call ptr @_ZnamSt11align_val_t(i64 %n, i64 64)
  %g = call ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64 %n, i64 64, ptr @_ZSt7nothrow)
  %h = call ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64 %n, i64 64, ptr @_ZSt7nothrow)
  store volatile ptr %a, ptr %out
  store volatile ptr %b, ptr %out
  store volatile ptr %c, ptr %out
  store volatile ptr %d, ptr %out
  store volatile ptr %e, ptr %out
  store volatile ptr %f, ptr %out
  store volatile ptr %g, ptr %out
  store volatile ptr %h, ptr %out
  ret void
}

declare ptr @_Znwm(i64)
declare ptr @_Znam(i64)
declare ptr @_ZnwmRKSt9nothrow_t(i64, ptr)
declare ptr @_ZnamRKSt9nothrow_t(i64, ptr)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare ptr @_ZnamSt11align_val_t(i64, i64)
declare ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64, i64, ptr)
declare ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64, i64, ptr)

; CHECK-DAG: declare ptr @__mdebug_new(i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_array(i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_nothrow(i64, ptr, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_array_nothrow(i64, ptr, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_aligned(i64, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_array_aligned(i64, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_aligned_nothrow(i64, i64, ptr, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_new_array_aligned_nothrow(i64, i64, ptr, ptr){{$}}
