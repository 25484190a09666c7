; Proves: a site's file is the path a user can open: a relative DIFile name is joined with its directory ("." components dropped, ".." kept), an absolute name or one without a directory stays as recorded; and the id hashes the name as recorded, without the directory, so the same source built in a moved checkout keeps its ids while the printed paths follow the move.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s --check-prefixes=CHECK,HERE
; The same module compiled in another checkout: only the directories differ.
; RUN: sed 's|/home/u/proj|/ci/work/proj|g' %s | %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S | %FileCheck %s --check-prefixes=CHECK,MOVED

; The ids are FNV-1a 64 (site.h) of the recorded names, computed outside the
; pass: "src/./a.c" "a" 3 7 0, "../lib/b.c" "b" 4 8 0, "/usr/include/c.h"
; "c" 5 9 0, "d.c" "d" 6 10 0.
; HERE-DAG: @[[A:__mdebug_str[.0-9]*]] = private unnamed_addr constant [21 x i8] c"/home/u/proj/src/a.c\00"
; MOVED-DAG: @[[A:__mdebug_str[.0-9]*]] = private unnamed_addr constant [22 x i8] c"/ci/work/proj/src/a.c\00"
; HERE-DAG: @[[B:__mdebug_str[.0-9]*]] = private unnamed_addr constant [30 x i8] c"/home/u/proj/build/../lib/b.c\00"
; MOVED-DAG: @[[B:__mdebug_str[.0-9]*]] = private unnamed_addr constant [31 x i8] c"/ci/work/proj/build/../lib/b.c\00"
; CHECK-DAG: @[[C:__mdebug_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"/usr/include/c.h\00"
; CHECK-DAG: @[[D:__mdebug_str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"d.c\00"
; CHECK-DAG: private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 7872247212317116164, ptr @[[A]], ptr @{{__mdebug_str[.0-9]*}}, i32 3, i32 7, i32 0, i32 0, ptr null }
; CHECK-DAG: private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 -7537011163763815581, ptr @[[B]], ptr @{{__mdebug_str[.0-9]*}}, i32 4, i32 8, i32 0, i32 0, ptr null }
; CHECK-DAG: private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 -2300970045652636426, ptr @[[C]], ptr @{{__mdebug_str[.0-9]*}}, i32 5, i32 9, i32 0, i32 0, ptr null }
; CHECK-DAG: private global { i64, ptr, ptr, i32, i32, i32, i32, ptr } { i64 2438996393780973900, ptr @[[D]], ptr @{{__mdebug_str[.0-9]*}}, i32 6, i32 10, i32 0, i32 0, ptr null }

source_filename = "src/./a.c"

define ptr @a() !dbg !10 {
  %p = call ptr @malloc(i64 1), !dbg !20
  ret ptr %p
}

define ptr @b() !dbg !11 {
  %p = call ptr @malloc(i64 2), !dbg !21
  ret ptr %p
}

define ptr @c() !dbg !12 {
  %p = call ptr @malloc(i64 3), !dbg !22
  ret ptr %p
}

define ptr @d() !dbg !13 {
  %p = call ptr @malloc(i64 4), !dbg !23
  ret ptr %p
}

declare ptr @malloc(i64)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!9}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "src/./a.c", directory: "/home/u/proj")
!2 = !DIFile(filename: "../lib/b.c", directory: "/home/u/proj/build")
!3 = !DIFile(filename: "/usr/include/c.h", directory: "/home/u/proj")
!4 = !DIFile(filename: "d.c", directory: "")
!9 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DISubroutineType(types: !6)
!6 = !{}
!10 = distinct !DISubprogram(name: "a", scope: !1, file: !1, line: 2, type: !5, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "b", scope: !2, file: !2, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!12 = distinct !DISubprogram(name: "c", scope: !3, file: !3, line: 4, type: !5, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!13 = distinct !DISubprogram(name: "d", scope: !4, file: !4, line: 5, type: !5, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 3, column: 7, scope: !10)
!21 = !DILocation(line: 4, column: 8, scope: !11)
!22 = !DILocation(line: 5, column: 9, scope: !12)
!23 = !DILocation(line: 6, column: 10, scope: !13)
