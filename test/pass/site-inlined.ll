; Proves: for an inlined call the site takes the innermost DILocation: the inlined callee's file, line, column and demangled linkage name, not the caller's.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK: @[[FILE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"/src/inc/helper.h\00"
; CHECK-NEXT: @[[FUNC:__mdebug_str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"helper()\00"
; CHECK-NEXT: @[[SITE:__mdebug_site[.0-9]*]] = private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 6723482682521613733, ptr @[[FILE]], ptr @[[FUNC]], i32 3, i32 5, i32 0, i32 0, ptr null }, section "mdebug_sites", align 8
; CHECK-NOT: outer.cpp
; CHECK-LABEL: define ptr @_Z5outerv(
; CHECK-NEXT: %p = call ptr @__mdebug_malloc(i64 4, ptr @[[SITE]]), !dbg [[LOC:![0-9]+]]
; CHECK: [[LOC]] = !DILocation(line: 3, column: 5, scope: {{![0-9]+}}, inlinedAt: {{![0-9]+}})

source_filename = "src/outer.cpp"

define ptr @_Z5outerv() !dbg !5 {
  %p = call ptr @malloc(i64 4), !dbg !12
  ret ptr %p
}

declare ptr @malloc(i64)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "src/outer.cpp", directory: "/src")
!2 = !DIFile(filename: "inc/helper.h", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "outer", linkageName: "_Z5outerv", scope: !1, file: !1, line: 18, type: !6, scopeLine: 18, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = distinct !DISubprogram(name: "helper", linkageName: "_Z6helperv", scope: !2, file: !2, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DILocation(line: 20, column: 10, scope: !5)
!12 = !DILocation(line: 3, column: 5, scope: !8, inlinedAt: !11)
