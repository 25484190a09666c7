; Proves: the element count a delete[] expression reads from its array cookie (an i64 load 8 bytes before the pointer it indexes as T[count], whose operator delete[] gets a pointer a cookie before it) goes through __mdebug_array_cookie(count's address, count, sizeof(T), the delete[]'s site) right after the load, and every use takes the checked count: for an 8-byte cookie, an over-aligned 32-byte one, and a sized delete[]; an operator delete[] without such a read, and a read nobody indexes with, are left alone.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

%struct.C = type { i32 }
%struct.A = type { i32, [28 x i8] }

; CHECK-DAG: @[[SC:__mdebug_site[.0-9]*]] = private global {{.*}} i32 22, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[SA:__mdebug_site[.0-9]*]] = private global {{.*}} i32 26, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[SS:__mdebug_site[.0-9]*]] = private global {{.*}} i32 24, i32 0, ptr null }, section "mdebug_sites"

define void @plain(ptr %p) {
; CHECK-LABEL: define void @plain(
; CHECK: %n = load i64, ptr %at
; CHECK-NEXT: %[[N:[0-9]+]] = call i64 @__mdebug_array_cookie(ptr %at, i64 %n, i64 4, ptr @[[SC]])
; CHECK-NEXT: %end = getelementptr inbounds %struct.C, ptr %p, i64 %[[N]]
; CHECK: call void @__mdebug_delete_array(ptr %at, ptr @[[SC]])
  %at = getelementptr inbounds i8, ptr %p, i64 -8
  %n = load i64, ptr %at
  %end = getelementptr inbounds %struct.C, ptr %p, i64 %n
  call void @use(ptr %end)
  call void @_ZdaPv(ptr %at)
  ret void
}

define void @over_aligned(ptr %p) {
; CHECK-LABEL: define void @over_aligned(
; CHECK: %n = load i64, ptr %at
; CHECK-NEXT: %[[N:[0-9]+]] = call i64 @__mdebug_array_cookie(ptr %at, i64 %n, i64 32, ptr @[[SA]])
; CHECK-NEXT: %end = getelementptr inbounds %struct.A, ptr %p, i64 %[[N]]
; CHECK: call void @__mdebug_delete_array_aligned(ptr %block, i64 32, ptr @[[SA]])
  %block = getelementptr inbounds i8, ptr %p, i64 -32
  %at = getelementptr inbounds i8, ptr %block, i64 24
  %n = load i64, ptr %at
  %end = getelementptr inbounds %struct.A, ptr %p, i64 %n
  call void @use(ptr %end)
  call void @_ZdaPvSt11align_val_t(ptr %block, i64 32)
  ret void
}

define void @sized(ptr %p) {
; CHECK-LABEL: define void @sized(
; CHECK: %[[N:[0-9]+]] = call i64 @__mdebug_array_cookie(ptr %at, i64 %n, i64 4, ptr @[[SS]])
; CHECK-NEXT: %end = getelementptr inbounds %struct.C, ptr %p, i64 %[[N]]
; CHECK-NEXT: %bytes = mul i64 4, %[[N]]
; CHECK: call void @__mdebug_delete_array_sized(ptr %at, i64 %size, ptr @[[SS]])
  %at = getelementptr inbounds i8, ptr %p, i64 -8
  %n = load i64, ptr %at
  %end = getelementptr inbounds %struct.C, ptr %p, i64 %n
  %bytes = mul i64 4, %n
  %size = add i64 %bytes, 8
  call void @use(ptr %end)
  call void @_ZdaPvm(ptr %at, i64 %size)
  ret void
}

define void @no_count(ptr %p) {
; CHECK-LABEL: define void @no_count(
; CHECK-NOT: __mdebug_array_cookie
; CHECK: call void @__mdebug_delete_array(
  %at = getelementptr inbounds i8, ptr %p, i64 -8
  %n = load i64, ptr %at
  call void @print(i64 %n)
  call void @_ZdaPv(ptr %at)
  ret void
}

define void @direct(ptr %p) {
; CHECK-LABEL: define void @direct(
; CHECK-NOT: __mdebug_array_cookie
; CHECK: call void @__mdebug_delete_array(
  call void @_ZdaPv(ptr %p)
  ret void
}

; CHECK: declare i64 @__mdebug_array_cookie(ptr, i64, i64, ptr)

declare void @use(ptr)
declare void @print(i64)
declare void @_ZdaPv(ptr)
declare void @_ZdaPvm(ptr, i64)
declare void @_ZdaPvSt11align_val_t(ptr, i64)
