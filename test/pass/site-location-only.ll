; Proves: with locations but no linkage names (what -Rpass=mdebug without -g gives) the site's function is the demangled IR name of the enclosing function, so -g and location-only builds agree.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; CHECK-DAG: @[[FILE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"/abs/dir/loc.cpp\00"
; CHECK-DAG: @[[WORK:__mdebug_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"work()\00"
; CHECK-DAG: @[[CFUN:__mdebug_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"cfun\00"
; CHECK-DAG: private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 -2534287885089407538, ptr @[[FILE]], ptr @[[WORK]], i32 7, i32 12, i32 13, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 -470589421253280044, ptr @[[FILE]], ptr @[[CFUN]], i32 15, i32 3, i32 4, i32 0, ptr null }, section "mdebug_sites"

source_filename = "/abs/dir/loc.cpp"

define ptr @_Z4workv() !dbg !5 {
  %p = call ptr @_Znwm(i64 4), !dbg !10
  ret ptr %p
}

define void @cfun(ptr %p) !dbg !8 {
  call void @free(ptr %p), !dbg !11
  ret void
}

declare ptr @_Znwm(i64)
declare void @free(ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: NoDebug)
!1 = !DIFile(filename: "dir/loc.cpp", directory: "/abs")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "work", scope: !1, file: !1, line: 6, type: !6, scopeLine: 6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = distinct !DISubprogram(name: "cfun", scope: !1, file: !1, line: 14, type: !6, scopeLine: 14, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 7, column: 12, scope: !5)
!11 = !DILocation(line: 15, column: 3, scope: !8)
