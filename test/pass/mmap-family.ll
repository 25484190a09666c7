; Proves: mmap, mmap64, munmap, mremap and pthread_create are rewritten (ops
; 33 to 37); mremap is variadic: a call without new_address gets a null one,
; a call with it passes it on, and a call with an argument mremap does not
; take (or of another type) is left alone.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK-DAG: @[[MMAP:__mdebug_site[.0-9]*]] = private global {{.*}} i32 33, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[MMAP64:__mdebug_site[.0-9]*]] = private global {{.*}} i32 34, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[MUNMAP:__mdebug_site[.0-9]*]] = private global {{.*}} i32 35, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[MREMAP4:__mdebug_site[.0-9]*]] = private global {{.*}} i32 36, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[MREMAP5:__mdebug_site[.0-9]*]] = private global {{.*}} i32 36, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[CREATE:__mdebug_site[.0-9]*]] = private global {{.*}} i32 37, i32 0, ptr null }, section "mdebug_sites"

define ptr @maps(ptr %hint, i64 %n, i32 %fd, i64 %off, ptr %to) {
; CHECK-LABEL: define ptr @maps(
; CHECK-NEXT: %a = call ptr @__mdebug_mmap(ptr %hint, i64 %n, i32 3, i32 34, i32 -1, i64 0, ptr @[[MMAP]])
; CHECK-NEXT: %b = call ptr @__mdebug_mmap64(ptr null, i64 %n, i32 1, i32 2, i32 %fd, i64 %off, ptr @[[MMAP64]])
; CHECK-NEXT: %c = call ptr @__mdebug_mremap(ptr %a, i64 %n, i64 8192, i32 1, ptr null, ptr @[[MREMAP4]])
; CHECK-NEXT: %d = call ptr @__mdebug_mremap(ptr %c, i64 8192, i64 4096, i32 3, ptr %to, ptr @[[MREMAP5]])
; CHECK-NEXT: %e = call ptr (ptr, i64, i64, i32, ...) @mremap(ptr %d, i64 4096, i64 4096, i32 3, ptr %to, i64 7)
; CHECK-NEXT: %f = call ptr (ptr, i64, i64, i32, ...) @mremap(ptr %e, i64 4096, i64 4096, i32 3, i64 7)
; CHECK-NEXT: %r = call i32 @__mdebug_munmap(ptr %b, i64 %n, ptr @[[MUNMAP]])
; CHECK-NEXT: ret ptr %f
  %a = call ptr @mmap(ptr %hint, i64 %n, i32 3, i32 34, i32 -1, i64 0)
  %b = call ptr @mmap64(ptr null, i64 %n, i32 1, i32 2, i32 %fd, i64 %off)
  %c = call ptr (ptr, i64, i64, i32, ...) @mremap(ptr %a, i64 %n, i64 8192, i32 1)
  %d = call ptr (ptr, i64, i64, i32, ...) @mremap(ptr %c, i64 8192, i64 4096, i32 3, ptr %to)
  %e = call ptr (ptr, i64, i64, i32, ...) @mremap(ptr %d, i64 4096, i64 4096, i32 3, ptr %to, i64 7)
  %f = call ptr (ptr, i64, i64, i32, ...) @mremap(ptr %e, i64 4096, i64 4096, i32 3, i64 7)
  %r = call i32 @munmap(ptr %b, i64 %n)
  ret ptr %f
}

define i32 @spawn(ptr %t, ptr %attr, ptr %fn, ptr %arg) {
; CHECK-LABEL: define i32 @spawn(
; CHECK-NEXT: %r = call i32 @__mdebug_pthread_create(ptr %t, ptr %attr, ptr %fn, ptr %arg, ptr @[[CREATE]])
  %r = call i32 @pthread_create(ptr %t, ptr %attr, ptr %fn, ptr %arg)
  ret i32 %r
}

declare ptr @mmap(ptr, i64, i32, i32, i32, i64)
declare ptr @mmap64(ptr, i64, i32, i32, i32, i64)
declare i32 @munmap(ptr, i64)
declare ptr @mremap(ptr, i64, i64, i32, ...)
declare i32 @pthread_create(ptr, ptr, ptr, ptr)

; CHECK-DAG: declare ptr @__mdebug_mmap(ptr, i64, i32, i32, i32, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_mmap64(ptr, i64, i32, i32, i32, i64, ptr){{$}}
; CHECK-DAG: declare i32 @__mdebug_munmap(ptr, i64, ptr){{$}}
; CHECK-DAG: declare ptr @__mdebug_mremap(ptr, i64, i64, i32, ptr, ptr){{$}}
; CHECK-DAG: declare i32 @__mdebug_pthread_create(ptr, ptr, ptr, ptr, ptr){{$}}
