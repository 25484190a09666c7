; Proves: -passes=mdebug-access checks loads, stores and atomics whose address may be in the heap: one lookup of the origin's block (preserve_most), then per access two compares against its bytes (one for a field at a fixed offset, one for all the fields of one origin in one block) and a cold __mdebug_access_fail with the access's size, kind (bit 32: write) and site; an address checked again in its block is not checked twice; accesses based on an alloca, a byval argument or a global are left alone. (Shown with the lookup called; access-inline.ll shows its inline probe.)
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-inline=0 -S %s | %FileCheck %s

@g = global [4 x i32] zeroinitializer

define i32 @use(ptr %p, i64 %i, ptr byval(i32) %b) {
; CHECK-LABEL: define i32 @use(
; CHECK: store i32 1, ptr %a, align 4{{$}}
; CHECK-NEXT: store i32 2, ptr @g, align 4{{$}}
; CHECK-NEXT: store i32 3, ptr %b, align 4{{$}}
; CHECK-NEXT: %[[ANS:[0-9]+]] = call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK-NEXT: %[[E:[0-9]+]] = extractelement <2 x i64> %[[ANS]], i64 0
; CHECK-NEXT: %[[EP:[0-9]+]] = inttoptr i64 %[[E]] to ptr
; CHECK-NEXT: %[[SP:[0-9]+]] = getelementptr inbounds i8, ptr %[[EP]], i64 0
; CHECK-NEXT: %[[S:[0-9]+]] = load i64, ptr %[[SP]], align 8, !mdebug.check
; CHECK-NEXT: %[[ENDP:[0-9]+]] = getelementptr inbounds i8, ptr %[[EP]], i64 8
; CHECK-NEXT: %[[END:[0-9]+]] = load i64, ptr %[[ENDP]], align 8, !mdebug.check
; At the origin (or a constant number of bytes past it): the end only. And
; fields of one origin in one block under one answer (%x at 0, %r at 16: 8
; bytes) share one compare of the farthest end, before the first; when it
; fails, each goes to __mdebug_access_fail (a write: bit 32).
; CHECK: %[[X:[0-9]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT: %[[XN:[0-9]+]] = add i64 %[[X]], 24
; CHECK-NEXT: %[[HI:[0-9]+]] = icmp ugt i64 %[[XN]], %[[END]]
; CHECK-NEXT: br i1 %[[HI]], label %[[FAIL:[0-9]+]], label %[[OK:[0-9]+]], !prof ![[COLD:[0-9]+]]
; CHECK: [[FAIL]]:
; CHECK-NEXT: call preserve_mostcc void @__mdebug_access_fail(ptr %p, ptr %p, i64 4, ptr @__mdebug_access_site)
; CHECK-NEXT: %[[RP:[0-9]+]] = getelementptr i8, ptr %p, i64 16
; CHECK-NEXT: call preserve_mostcc void @__mdebug_access_fail(ptr %[[RP]], ptr %p, i64 4294967304, ptr @__mdebug_access_site)
; CHECK: [[OK]]:
; CHECK-NEXT: %x = load i32, ptr %p, align 4, !mdebug.check
; The origin of %q is %p: no second lookup. A variable index: both ends.
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: %[[Q:[0-9]+]] = ptrtoint ptr %q to i64
; CHECK-NEXT: %[[QN:[0-9]+]] = add i64 %[[Q]], 4
; CHECK-NEXT: %[[QHI:[0-9]+]] = icmp ugt i64 %[[QN]], %[[END]]
; CHECK-NEXT: %[[QLO:[0-9]+]] = icmp ult i64 %[[Q]], %[[S]]
; CHECK-NEXT: %[[QOUT:[0-9]+]] = or i1 %[[QLO]], %[[QHI]]
; CHECK-NEXT: br i1 %[[QOUT]]
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %q, ptr %p, i64 4, ptr @__mdebug_access_site)
; CHECK: %y = load i32, ptr %q
; CHECK-NEXT: store i32 %x, ptr %q
; CHECK-NOT: @__mdebug_access_fail
; CHECK: %old = atomicrmw add ptr %r, i64 1 seq_cst
; CHECK-NOT: @__mdebug_access_fail
; CHECK: ret i32
  %a = alloca [4 x i32]
  store i32 1, ptr %a
  store i32 2, ptr @g
  store i32 3, ptr %b
  %x = load i32, ptr %p
  %q = getelementptr inbounds i32, ptr %p, i64 %i
  %y = load i32, ptr %q
  store i32 %x, ptr %q
  %r = getelementptr inbounds i64, ptr %p, i64 2
  %old = atomicrmw add ptr %r, i64 1 seq_cst
  %s = add i32 %x, %y
  ret i32 %s
}

; Fields of an element at a variable index (%e, from %p; its fields at 0 and
; 4) share one test of the element's address against the start and one of
; the farthest end.
define i32 @element(ptr %p, i64 %i) {
; CHECK-LABEL: define i32 @element(
; CHECK: %[[E:[0-9]+]] = ptrtoint ptr %e to i64
; CHECK-NEXT: %[[EN:[0-9]+]] = add i64 %[[E]], 8
; CHECK-NEXT: %[[HI:[0-9]+]] = icmp ugt i64 %[[EN]], %{{[0-9]+}}
; CHECK-NEXT: %[[LO:[0-9]+]] = icmp ult i64 %[[E]], %{{[0-9]+}}
; CHECK-NEXT: %[[OUT:[0-9]+]] = or i1 %[[LO]], %[[HI]]
; CHECK-NEXT: br i1 %[[OUT]]
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %e, ptr %p, i64 4,
; CHECK-NEXT: %[[BP:[0-9]+]] = getelementptr i8, ptr %e, i64 4
; CHECK-NEXT: call preserve_mostcc void @__mdebug_access_fail(ptr %[[BP]], ptr %p, i64 4,
; CHECK: %a = load i32, ptr %e
; CHECK-NOT: @__mdebug_access_fail
; CHECK: ret i32
  %e = getelementptr inbounds [2 x i32], ptr %p, i64 %i
  %a = load i32, ptr %e
  %f = getelementptr inbounds i32, ptr %e, i64 1
  %b = load i32, ptr %f
  %s = add i32 %a, %b
  ret i32 %s
}

; The same when each field's address is one GEP (&p[i].a, &p[i].b): the
; element's address, their common prefix, is computed once for the check.
define i32 @element_fields(ptr %p, i64 %i) {
; CHECK-LABEL: define i32 @element_fields(
; CHECK: %[[EP:[0-9]+]] = getelementptr inbounds { i32, i32 }, ptr %p, i64 %i
; CHECK-NEXT: %[[E:[0-9]+]] = ptrtoint ptr %[[EP]] to i64
; CHECK-NEXT: %[[EN:[0-9]+]] = add i64 %[[E]], 8
; CHECK-NEXT: %[[HI:[0-9]+]] = icmp ugt i64 %[[EN]], %{{[0-9]+}}
; CHECK-NEXT: %[[LO:[0-9]+]] = icmp ult i64 %[[E]], %{{[0-9]+}}
; CHECK-NEXT: %[[OUT:[0-9]+]] = or i1 %[[LO]], %[[HI]]
; CHECK-NEXT: br i1 %[[OUT]]
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %[[EP]], ptr %p, i64 4,
; CHECK-NEXT: %[[BP:[0-9]+]] = getelementptr i8, ptr %[[EP]], i64 4
; CHECK-NEXT: call preserve_mostcc void @__mdebug_access_fail(ptr %[[BP]], ptr %p, i64 4,
; CHECK: %a = load i32, ptr %a.p
; CHECK-NOT: @__mdebug_access_fail
; CHECK: ret i32
  %a.p = getelementptr inbounds { i32, i32 }, ptr %p, i64 %i, i32 0
  %a = load i32, ptr %a.p
  %b.p = getelementptr inbounds { i32, i32 }, ptr %p, i64 %i, i32 1
  %b = load i32, ptr %b.p
  %s = add i32 %a, %b
  ret i32 %s
}

; Fields of one origin are not checked together across a call that may not
; return (it may exit or longjmp), even one that frees nothing: the second
; field gets a compare of its own, after the call.
declare void @may_exit() nofree nounwind
define i32 @fields_around_call(ptr %p) {
; CHECK-LABEL: define i32 @fields_around_call(
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT: add i64 %[[A]], 4{{$}}
; CHECK: %x = load i32, ptr %p
; CHECK-NEXT: call void @may_exit()
; CHECK-NEXT: %f = getelementptr inbounds i32, ptr %p, i64 4
; CHECK-NEXT: %[[B:[0-9]+]] = ptrtoint ptr %f to i64
; CHECK-NEXT: add i64 %[[B]], 4{{$}}
; CHECK: %y = load i32, ptr %f
  %x = load i32, ptr %p
  call void @may_exit()
  %f = getelementptr inbounds i32, ptr %p, i64 4
  %y = load i32, ptr %f
  %s = add i32 %x, %y
  ret i32 %s
}

; CHECK-DAG: declare preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr)
; CHECK-DAG: declare preserve_mostcc void @__mdebug_access_fail(ptr, ptr, i64, ptr)
; CHECK-DAG: ![[COLD]] = !{!"branch_weights", i32 1, i32 1073741824}

