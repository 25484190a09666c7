; Proves: taking an allocator's address (stored, put in a table, or passed as in tdestroy(root, free)) is not a call and is left alone.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=__mdebug --implicit-check-not=mdebug_sites --implicit-check-not=mdebug.module_ctor %s

; CHECK: @table = global [2 x ptr] [ptr @malloc, ptr @free]
@table = global [2 x ptr] [ptr @malloc, ptr @free]

define void @use(ptr %root, ptr %slot) {
; CHECK-LABEL: define void @use(
; CHECK-NEXT: store ptr @free, ptr %slot
; CHECK-NEXT: call void @tdestroy(ptr %root, ptr @free)
  store ptr @free, ptr %slot
  call void @tdestroy(ptr %root, ptr @free)
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @tdestroy(ptr, ptr)
