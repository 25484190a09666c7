; Proves: lookups are shared where that is sound: after a call that may free, an origin's block is revalidated (its metadata word compared again, a new lookup only on the cold path); a nofree call keeps the answer; where paths meet the answer arrives through a phi; an origin defined outside a loop is looked up once in the preheader; and a pointer redefined on each iteration (a phi) is looked up each time. -mdebug-access-share=0 looks up for every access.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-access -S %s | %FileCheck %s
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-share=0 -S %s | %FileCheck %s --check-prefix=EACH

declare void @may_free(ptr)
declare void @keeps(ptr) nofree

define void @calls(ptr %p) {
; CHECK-LABEL: define void @calls(
; CHECK: %[[A:[0-9]+]] = call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK: store i32 1, ptr %p
; CHECK-NEXT: call void @keeps(ptr %p)
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: store i32 2, ptr %p
; CHECK-NEXT: call void @may_free(ptr %p)
; CHECK-NEXT: %[[NOW:[0-9]+]] = load atomic i64, ptr %[[W:[0-9]+]] unordered, align 8, !mdebug.check
; CHECK-NEXT: %[[CHANGED:[0-9]+]] = icmp ne i64 %[[NOW]], %[[V:[0-9]+]]
; CHECK-NEXT: br i1 %[[CHANGED]], label %[[AGAIN:[0-9]+]], label %[[SAME:[0-9]+]], !prof
; CHECK: [[AGAIN]]:
; CHECK-NEXT: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK: [[SAME]]:
; CHECK-NEXT: phi i64
; CHECK: store i32 3, ptr %p
; EACH-LABEL: define void @calls(
; EACH-COUNT-3: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; EACH-NOT: @__mdebug_access_lookup
; EACH: ret void
  store i32 1, ptr %p
  call void @keeps(ptr %p)
  store i32 2, ptr %p
  call void @may_free(ptr %p)
  store i32 3, ptr %p
  ret void
}

define void @join(ptr %p, i1 %c) {
; CHECK-LABEL: define void @join(
; CHECK: entry:
; CHECK-NEXT: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: ret void
entry:
  store i32 0, ptr %p
  br i1 %c, label %left, label %right
left:
  %l = getelementptr inbounds i32, ptr %p, i64 1
  store i32 1, ptr %l
  br label %end
right:
  %r = getelementptr inbounds i32, ptr %p, i64 2
  store i32 2, ptr %r
  br label %end
end:
  %e = getelementptr inbounds i32, ptr %p, i64 3
  store i32 3, ptr %e
  ret void
}

define i32 @loop(ptr %p, ptr %list, i64 %n) {
; CHECK-LABEL: define i32 @loop(
; CHECK: entry:
; CHECK-NEXT: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK: br label %loop
; CHECK: loop:
; CHECK: %node = phi ptr
; CHECK: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %node)
; CHECK-NOT: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %p)
; CHECK: ret i32
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %node = phi ptr [ %list, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %a = getelementptr inbounds i32, ptr %p, i64 %i
  %x = load i32, ptr %a
  %next = load ptr, ptr %node
  %s.next = add i32 %s, %x
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %s.next
}
