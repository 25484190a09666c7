; Proves: an access site descriptor is { i32 file, i32 function, i32 line, i32 column } in the section "mdebug_access_sites", its strings given as their offsets from the descriptor itself (no relocation at load time), the file joined with the compilation directory and the function demangled, as allocation sites name them; accesses at one source location share one descriptor, another location gets its own.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-access -S %s | %FileCheck %s

; CHECK-DAG: @[[A:__mdebug_access_site[.0-9]*]] = private constant { i32, i32, i32, i32 } { i32 trunc (i64 sub (i64 ptrtoint (ptr @[[FILE:__mdebug_str[.0-9]*]] to i64), i64 ptrtoint (ptr @[[A]] to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @[[FUNC:__mdebug_str[.0-9]*]] to i64), i64 ptrtoint (ptr @[[A]] to i64)) to i32), i32 7, i32 12 }, section "mdebug_access_sites", align 8
; CHECK-DAG: @[[B:__mdebug_access_site[.0-9]*]] = private constant { i32, i32, i32, i32 } { {{.*}}, i32 8, i32 3 }, section "mdebug_access_sites", align 8
; CHECK-DAG: @[[FILE]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"/home/u/proj/src/f.c\00"
; CHECK-DAG: @[[FUNC]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"ns::f(int*)\00"

define i32 @_ZN2ns1fEPi(ptr %p) !dbg !5 {
; CHECK-LABEL: define i32 @_ZN2ns1fEPi(
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %p, ptr %p, i64 4, ptr @[[A]])
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %{{[0-9]+}}, ptr %p, i64 4, ptr @[[A]])
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %{{[0-9]+}}, ptr %p, i64 4294967300, ptr @[[B]])
  %x = load i32, ptr %p, !dbg !8
  %q = getelementptr inbounds i32, ptr %p, i64 1
  %y = load i32, ptr %q, !dbg !8
  %r = getelementptr inbounds i32, ptr %p, i64 2
  store i32 %x, ptr %r, !dbg !9
  ret i32 %y
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/f.c", directory: "/home/u/proj")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", linkageName: "_ZN2ns1fEPi", scope: !1, file: !1, line: 5, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 7, column: 12, scope: !5)
!9 = !DILocation(line: 8, column: 3, scope: !5)
