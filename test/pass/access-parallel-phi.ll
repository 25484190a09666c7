; Proves: a phi that, on every edge, is another phi of its block plus non-negative steps (an interpreter's register pointer `ra = base + A`, carried through its dispatch beside the stack base) takes that phi as its origin: the accesses of both share one lookup, and those of the first are tested against the end only. A phi whose input may lie below the other's (a signed index) keeps a lookup of its own.
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-inline=0 -S %s | %FileCheck %s

; CHECK-LABEL: define i64 @dispatch(
; CHECK: loop:
; CHECK: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %base)
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %ra to i64
; CHECK-NEXT: %[[AN:[0-9]+]] = add i64 %[[A]], 8
; CHECK-NEXT: %[[HI:[0-9]+]] = icmp ugt i64 %[[AN]], %{{[0-9]+}}
; CHECK-NEXT: br i1 %[[HI]]
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %ra, ptr %base, i64 8
; CHECK: %x = load i64, ptr %ra
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: ret i64
define i64 @dispatch(ptr %b0, i64 %i0, ptr %next) {
entry:
  %a0 = and i64 %i0, 255
  %r0 = getelementptr inbounds i64, ptr %b0, i64 %a0
  br label %loop

loop:
  %base = phi ptr [ %b0, %entry ], [ %b1, %loop ]
  %ra = phi ptr [ %r0, %entry ], [ %r1, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %sum, %loop ]
  %x = load i64, ptr %ra
  %y = load i64, ptr %base
  %sum = add i64 %x, %y
  %b1 = load ptr, ptr %next
  %a1 = and i64 %sum, 255
  %r1 = getelementptr inbounds i64, ptr %b1, i64 %a1
  %more = icmp ne i64 %sum, 0
  br i1 %more, label %loop, label %done

done:
  ret i64 %sum
}

; CHECK-LABEL: define i64 @signed(
; CHECK: loop:
; CHECK: @__mdebug_access_lookup(ptr %ra)
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %ra, ptr %ra, i64 8
; CHECK: %x = load i64, ptr %ra
; CHECK: @__mdebug_access_lookup(ptr %base)
define i64 @signed(ptr %b0, i64 %i0, ptr %next) {
entry:
  %r0 = getelementptr inbounds i64, ptr %b0, i64 %i0
  br label %loop

loop:
  %base = phi ptr [ %b0, %entry ], [ %b1, %loop ]
  %ra = phi ptr [ %r0, %entry ], [ %r1, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %sum, %loop ]
  %x = load i64, ptr %ra
  %y = load i64, ptr %base
  %sum = add i64 %x, %y
  %b1 = load ptr, ptr %next
  %r1 = getelementptr inbounds i64, ptr %b1, i64 %sum
  %more = icmp ne i64 %sum, 0
  br i1 %more, label %loop, label %done

done:
  ret i64 %sum
}
