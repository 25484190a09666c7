; Proves: running the access checks twice (-passes=mdebug-access,mdebug-access, or the pass at the end of two pipelines) checks each access once: what the pass made and what it checked carry !mdebug.check, and the checked calls are no longer the C library's.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-access -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-access,mdebug-access -S %s | %FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare i64 @strlen(ptr)

define i64 @use(ptr %p, ptr %q, i64 %n) {
; CHECK-LABEL: define i64 @use(
; CHECK-COUNT-1: call preserve_mostcc <2 x i64> @__mdebug_access_miss(
; CHECK-NOT: @__mdebug_access_{{lookup|miss}}(
; CHECK-COUNT-1: call preserve_mostcc void @__mdebug_access_fail(
; CHECK-NOT: @__mdebug_access_fail(
; CHECK-COUNT-2: call void @__mdebug_check_range(
; CHECK-NOT: @__mdebug_check_range(
; CHECK: call i64 @__mdebug_checked_strlen(ptr %p, ptr
; CHECK-NOT: @__mdebug_checked
; CHECK: ret i64
  %x = load i64, ptr %p
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  %l = call i64 @strlen(ptr %p)
  %s = add i64 %x, %l
  ret i64 %s
}
