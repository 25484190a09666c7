; Proves: a call without DebugLoc gets file = the module's source_filename, line 0, column 0 and the demangled name of the enclosing IR function.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK: @[[FILE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"src/nodbg.cpp\00"
; CHECK-NEXT: @[[GET:__mdebug_str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"S::get()\00"
; CHECK-NEXT: @[[SITE1:__mdebug_site[.0-9]*]] = private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 4760356135731181731, ptr @[[FILE]], ptr @[[GET]], i32 0, i32 0, i32 0, i32 0, ptr null }, section "mdebug_sites", align 8
; CHECK-NEXT: @[[PLAIN:__mdebug_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"plain\00"
; CHECK-NEXT: @[[SITE2:__mdebug_site[.0-9]*]] = private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 -501516485094870926, ptr @[[FILE]], ptr @[[PLAIN]], i32 0, i32 0, i32 11, i32 0, ptr null }, section "mdebug_sites", align 8
; CHECK-LABEL: define ptr @_ZN1S3getEv(
; CHECK-NEXT: call ptr @__mdebug_malloc(i64 1, ptr @[[SITE1]]){{$}}
; CHECK-LABEL: define ptr @plain(
; CHECK-NEXT: call ptr @__mdebug_strdup(ptr %s, ptr @[[SITE2]]){{$}}

source_filename = "src/nodbg.cpp"

define ptr @_ZN1S3getEv() {
  %p = call ptr @malloc(i64 1)
  ret ptr %p
}

define ptr @plain(ptr %s) {
  %p = call ptr @strdup(ptr %s)
  ret ptr %p
}

declare ptr @malloc(i64)
declare ptr @strdup(ptr)
