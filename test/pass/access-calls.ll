; Proves: -passes=mdebug-calls (and mdebug-access) checks memory calls at the call: llvm.memcpy's destination (a write, via memcpy: 1 << 32 | 1 << 40) and source (a read) each get a test against the heap's range and a __mdebug_check_range with the call's site, but not one based on an alloca; direct calls of checks.def's functions become their __mdebug_checked_ versions with the site after their parameters (before the variable arguments of sprintf); the allocation rewrite's __mdebug_strdup is preceded by the check of the string it reads; a call whose prototype does not match (memcmp without its size) is left alone; and loads and stores are not checked.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-calls -S %s | %FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare ptr @strcpy(ptr, ptr)
declare i64 @strlen(ptr)
declare i32 @sprintf(ptr, ptr, ...)
declare i64 @read(i32, ptr, i64)
declare ptr @__mdebug_strdup(ptr, ptr)
declare i32 @memcmp(ptr, ptr)
@fmt = private constant [3 x i8] c"%d\00"
@site = external constant i8

define void @calls(ptr %d, ptr %s, i64 %n) {
; CHECK-LABEL: define void @calls(
; CHECK: %[[DI:[0-9]+]] = ptrtoint ptr %d to i64
; CHECK-NEXT: %[[BASE:[0-9]+]] = load i64, ptr @__mdebug_access, align {{[48]}}, !invariant.load
; CHECK-NEXT: %[[OFF:[0-9]+]] = sub i64 %[[DI]], %[[BASE]]
; CHECK-NEXT: %[[SIZE:[0-9]+]] = load i64, ptr getelementptr inbounds (i8, ptr @__mdebug_access, i64 8)
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp ult i64 %[[OFF]], %[[SIZE]]
; CHECK-NEXT: br i1 %[[IN]]
; CHECK: call void @__mdebug_check_range(ptr %d, i64 %n, i64 1103806595072, ptr @[[SITE:__mdebug_access_site[.0-9]*]])
; CHECK: call void @__mdebug_check_range(ptr %s, i64 %n, i64 1099511627776, ptr @[[SITE]])
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 8, i1 false)
; CHECK-NEXT: %r = call ptr @__mdebug_checked_strcpy(ptr %d, ptr %s, ptr @[[SITE]])
; CHECK-NEXT: %l = call i64 @__mdebug_checked_strlen(ptr %s, ptr @[[SITE]])
; CHECK-NEXT: %p = call i32 (ptr, ptr, ptr, ...) @__mdebug_checked_sprintf(ptr %d, ptr @fmt, ptr @[[SITE]], i32 7)
; CHECK-NEXT: %k = call i64 @__mdebug_checked_read(i32 0, ptr %d, i64 %n, ptr @[[SITE]])
; CHECK-NEXT: call void @__mdebug_check_string(ptr %s, i64 -1, i64 {{[0-9]+}}, ptr @[[SITE]])
; CHECK-NEXT: %c = call ptr @__mdebug_strdup(ptr %s, ptr @site)
; CHECK-NEXT: %m = call i32 @memcmp(ptr %d, ptr %s)
; CHECK-NEXT: %v = load i8, ptr %d, align 1{{$}}
; CHECK-NEXT: ret void
  %buf = alloca [8 x i8]
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 8, i1 false)
  %r = call ptr @strcpy(ptr %d, ptr %s)
  %l = call i64 @strlen(ptr %s)
  %p = call i32 (ptr, ptr, ...) @sprintf(ptr %d, ptr @fmt, i32 7)
  %k = call i64 @read(i32 0, ptr %d, i64 %n)
  %c = call ptr @__mdebug_strdup(ptr %s, ptr @site)
  %m = call i32 @memcmp(ptr %d, ptr %s)
  %v = load i8, ptr %d
  ret void
}

; CHECK-DAG: declare ptr @__mdebug_checked_strcpy(ptr, ptr, ptr)
; CHECK-DAG: declare i32 @__mdebug_checked_sprintf(ptr, ptr, ptr, ...)
