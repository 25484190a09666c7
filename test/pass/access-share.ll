; Proves: lookups are shared where that is sound: after a call that may free, an origin's block is revalidated (its metadata word compared again, a new lookup only on the cold path); a nofree call keeps the answer; where paths meet the answer arrives through a phi; an origin defined outside a loop is looked up once in the preheader; and a pointer redefined on each iteration (a phi) is looked up each time, unless it steps along one array (a phi or select of places in it, then the array is looked up once). -mdebug-access-share=0 looks up for every access. (Shown with the lookup called; access-inline.ll shows its inline probe.)
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-inline=0 -S %s | %FileCheck %s
; RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes=mdebug-access -mdebug-access-inline=0 -mdebug-access-share=0 -S %s | %FileCheck %s --check-prefix=EACH

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

; A pointer stepped along an array (a phi of the array and of itself plus
; one, or a select of two places in it) has the array as its origin: looked
; up once before the loop, and each access checked against the array's
; block. A phi of two different pointers is its own origin.
define i32 @stepped(ptr %a, ptr %b, i64 %n, i1 %c) {
; CHECK-LABEL: define i32 @stepped(
; CHECK: entry:
; CHECK: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %a)
; CHECK: loop:
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %p, ptr %a, i64 4,
; CHECK: %x = load i32, ptr %p
; CHECK-NOT: @__mdebug_access_lookup
; CHECK: call preserve_mostcc void @__mdebug_access_fail(ptr %q, ptr %a, i64 4,
; CHECK: %y = load i32, ptr %q
; CHECK: call preserve_mostcc <2 x i64> @__mdebug_access_lookup(ptr %m)
; CHECK: %z = load i32, ptr %m
; CHECK: ret i32
entry:
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %p.next, %loop ]
  %m = phi ptr [ %b, %entry ], [ %p.next, %loop ]
  %x = load i32, ptr %p
  %p1 = getelementptr inbounds i32, ptr %p, i64 1
  %p2 = getelementptr inbounds i32, ptr %p, i64 2
  %q = select i1 %c, ptr %p1, ptr %p2
  %y = load i32, ptr %q
  %z = load i32, ptr %m
  %p.next = getelementptr inbounds i32, ptr %q, i64 1
  %end = getelementptr inbounds i32, ptr %a, i64 %n
  %done = icmp eq ptr %p.next, %end
  br i1 %done, label %exit, label %loop
exit:
  %s = add i32 %x, %y
  %t = add i32 %s, %z
  ret i32 %t
}
