; Proves: a site records the DILocation's file joined with its directory (the path a user can open), line, column, demangled linkage name, op and the FNV-1a id of site.h over the file name as recorded (without the directory), as a private writable global (its origin_id, the runtime's word, emitted 0) in section "mdebug_sites" kept by llvm.compiler.used; strings are shared per module.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

; The ids are FNV-1a 64 of "dir/work.cpp\0ns::work(int)\0" + line, column, op
; as 4 little-endian bytes each, computed outside the pass.
; CHECK: @[[FILE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"/src/dir/work.cpp\00", align 1
; CHECK-NEXT: @[[FUNC:__mdebug_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"ns::work(int)\00", align 1
; CHECK-NEXT: @[[MALLOC:__mdebug_site[.0-9]*]] = private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 -3476994777792002054, ptr @[[FILE]], ptr @[[FUNC]], i32 12, i32 9, i32 0, i32 0, ptr null }, section "mdebug_sites", align 8
; CHECK-NEXT: @[[FREE:__mdebug_site[.0-9]*]] = private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 7102229271050989701, ptr @[[FILE]], ptr @[[FUNC]], i32 13, i32 3, i32 4, i32 0, ptr null }, section "mdebug_sites", align 8
; CHECK-NOT: __mdebug_str
; CHECK: @llvm.compiler.used = appending global [2 x ptr] [ptr @[[MALLOC]], ptr @[[FREE]]], section "llvm.metadata"

; CHECK-LABEL: define void @_ZN2ns4workEi(
; CHECK-NEXT: %p = call ptr @__mdebug_malloc(i64 8, ptr @[[MALLOC]]), !dbg
; CHECK-NEXT: call void @__mdebug_free(ptr %p, ptr @[[FREE]]), !dbg

source_filename = "dir/work.cpp"

define void @_ZN2ns4workEi(i32 %x) !dbg !5 {
  %p = call ptr @malloc(i64 8), !dbg !10
  call void @free(ptr %p), !dbg !11
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "dir/work.cpp", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "work", linkageName: "_ZN2ns4workEi", scope: !1, file: !1, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 12, column: 9, scope: !5)
!11 = !DILocation(line: 13, column: 3, scope: !5)
