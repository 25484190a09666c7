; Proves: after the rewrite the -O2 pipeline no longer deletes an unused malloc/free pair or a new/delete pair; the second RUN shows that it does without the pass.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes='mdebug,default<O2>' -S %s | %FileCheck %s
; RUN: %opt -passes='default<O2>' -S %s | %FileCheck --check-prefix=PLAIN %s

define void @pair(i64 %n) {
; CHECK-LABEL: define void @pair(
; CHECK: %p = {{.*}}call {{.*}}ptr @__mdebug_malloc(i64 %n, ptr {{.*}}@{{__mdebug_site[.0-9]*}})
; CHECK: call void @__mdebug_free(ptr {{.*}}%p, ptr {{.*}}@{{__mdebug_site[.0-9]*}})
; CHECK: %q = {{.*}}call {{.*}}ptr @__mdebug_new(i64 16, ptr {{.*}}@{{__mdebug_site[.0-9]*}})
; CHECK: call void @__mdebug_delete(ptr {{.*}}%q, ptr {{.*}}@{{__mdebug_site[.0-9]*}})
; PLAIN-LABEL: define void @pair(
; PLAIN-NEXT: ret void
  %p = call noalias ptr @malloc(i64 %n) #0
  store i8 1, ptr %p
  call void @free(ptr %p) #1
  %q = call noalias nonnull ptr @_Znwm(i64 16) #2
  call void @_ZdlPv(ptr %q) #3
  ret void
}

declare noalias ptr @malloc(i64) #0
declare void @free(ptr) #1
declare nonnull ptr @_Znwm(i64) #4
declare void @_ZdlPv(ptr) #1

attributes #0 = { nounwind allocsize(0) }
attributes #1 = { nounwind }
attributes #2 = { builtin allocsize(0) }
attributes #3 = { builtin nounwind }
attributes #4 = { allocsize(0) }
