; Proves: a callee named like an allocator whose prototype (or the call's own type) does not match abi.def's SIG is left alone; a matching one beside it is rewritten.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

define void @use(ptr %p) {
; CHECK-LABEL: define void @use(
; CHECK-NEXT: %a = call ptr @malloc(i32 16)
; CHECK-NEXT: %b = call i32 @calloc(i64 1, i64 2)
; CHECK-NEXT: %c = call ptr (ptr, ...) @strdup(ptr %p)
; CHECK-NEXT: call void @free(i64 5)
; CHECK-NEXT: %d = call ptr @__mdebug_valloc(i64 4096, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: ret void
  %a = call ptr @malloc(i32 16)            ; int instead of size_t
  %b = call i32 @calloc(i64 1, i64 2)      ; int instead of a pointer result
  %c = call ptr (ptr, ...) @strdup(ptr %p) ; variadic
  call void @free(i64 5)                   ; the call's type differs from @free's
  %d = call ptr @valloc(i64 4096)          ; matches: rewritten
  ret void
}

declare ptr @malloc(i32)
declare i32 @calloc(i64, i64)
declare ptr @strdup(ptr, ...)
declare void @free(ptr)
declare ptr @valloc(i64)

; CHECK-NOT: declare {{.*}}@__mdebug_malloc
; CHECK-NOT: declare {{.*}}@__mdebug_calloc
; CHECK-NOT: declare {{.*}}@__mdebug_strdup
; CHECK-NOT: declare {{.*}}@__mdebug_free
