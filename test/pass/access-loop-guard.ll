; Proves: an origin defined outside a loop whose header has one predecessor outside it, but no preheader (the guard `n > 0` branches to the loop or past it, as the optimiser leaves a guarded loop at its end), is looked up once before that guard's branch, not on each iteration.
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-inline=0 -S %s | %FileCheck %s

; CHECK-LABEL: define i32 @sum(
; CHECK: entry:
; CHECK: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK: br i1 %guard, label %loop, label %done
; CHECK: loop:
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: ret i32
define i32 @sum(ptr %p, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %done

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %add, %loop ]
  %q = getelementptr inbounds i32, ptr %p, i64 %i
  %v = load i32, ptr %q
  %add = add i32 %acc, %v
  %next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %next, %n
  br i1 %more, label %loop, label %done

done:
  %r = phi i32 [ 0, %entry ], [ %add, %loop ]
  ret i32 %r
}
