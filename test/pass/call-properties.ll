; Proves: the new call keeps the old call's name, tail marker, calling convention, operand bundles and !dbg, and takes over every use of the old value.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

define ptr @use(i64 %n, ptr %slot) !dbg !5 {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %p = tail call fastcc ptr @__mdebug_malloc(i64 %n, ptr @{{__mdebug_site[.0-9]*}}) [ "mdebug.test"(i64 %n) ], !dbg [[DBG:![0-9]+]]
; CHECK-NEXT: store ptr %p, ptr %slot
; CHECK-NEXT: %q = notail call ptr @__mdebug_realloc(ptr %p, i64 %n, ptr @{{__mdebug_site[.0-9]*}})
; CHECK-NEXT: ret ptr %q
  %p = tail call fastcc ptr @malloc(i64 %n) [ "mdebug.test"(i64 %n) ], !dbg !10
  store ptr %p, ptr %slot
  %q = notail call ptr @realloc(ptr %p, i64 %n)
  ret ptr %q
}

declare fastcc ptr @malloc(i64)
declare ptr @realloc(ptr, i64)

; CHECK: [[DBG]] = !DILocation(line: 4, column: 2,

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "p.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "use", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 4, column: 2, scope: !5)
