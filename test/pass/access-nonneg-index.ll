; Proves: an access at its origin plus indices the value tracking knows are non-negative and small (a masked byte, a zero-extended int) is tested against its block's end only, as a field is: every answer's start is at or below its origin; an index that may be negative (a signed int, an i64), or whose bound times its scale may reach 2^40 bytes, still gets both compares.
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-inline=0 -S %s | %FileCheck %s

; CHECK-LABEL: define i64 @masked(
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %q to i64
; CHECK-NEXT: %[[AN:[0-9]+]] = add i64 %[[A]], 16
; CHECK-NEXT: %[[HI:[0-9]+]] = icmp ugt i64 %[[AN]], %{{[0-9]+}}
; CHECK-NEXT: br i1 %[[HI]]
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %q, ptr %p, i64 16
; CHECK: %v = load i128, ptr %q
define i64 @masked(ptr %p, i64 %i) {
  %b = lshr i64 %i, 24
  %m = and i64 %b, 255
  %q = getelementptr inbounds i128, ptr %p, i64 %m
  %v = load i128, ptr %q
  %t = trunc i128 %v to i64
  ret i64 %t
}

; CHECK-LABEL: define i32 @zext(
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %q to i64
; CHECK-NEXT: %[[AN:[0-9]+]] = add i64 %[[A]], 4
; CHECK-NEXT: %[[HI:[0-9]+]] = icmp ugt i64 %[[AN]], %{{[0-9]+}}
; CHECK-NEXT: br i1 %[[HI]]
define i32 @zext(ptr %p, i32 %i) {
  %z = zext i32 %i to i64
  %q = getelementptr inbounds i32, ptr %p, i64 %z
  %v = load i32, ptr %q
  ret i32 %v
}

; CHECK-LABEL: define i32 @signed(
; CHECK: icmp ugt
; CHECK-NEXT: icmp ult
; CHECK-NEXT: or i1
define i32 @signed(ptr %p, i32 %i) {
  %q = getelementptr inbounds i32, ptr %p, i32 %i
  %v = load i32, ptr %q
  ret i32 %v
}

; CHECK-LABEL: define i32 @wide(
; CHECK: icmp ugt
; CHECK-NEXT: icmp ult
; CHECK-NEXT: or i1
define i32 @wide(ptr %p, i64 %i) {
  %m = and i64 %i, 1099511627775
  %q = getelementptr inbounds i32, ptr %p, i64 %m
  %v = load i32, ptr %q
  ret i32 %v
}
