; Proves: every operator delete form (plain, array, sized, aligned, sized aligned, nothrow, aligned nothrow; ops 21-32) becomes its __mdebug_delete* entry point.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

%"struct.std::nothrow_t" = type { i8 }
@_ZSt7nothrow = external global %"struct.std::nothrow_t"

; CHECK-DAG: @[[D:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 21, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DA:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 22, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DS:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 23, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DAS:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 24, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DAL:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 25, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DAAL:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 26, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DSAL:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 27, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DASAL:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 28, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DNT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 29, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DANT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 30, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DALNT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 31, i32 0, ptr null }, section "mdebug_sites"
; CHECK-DAG: @[[DAALNT:__mdebug_site[.0-9]*]] = private global {{.*}} i32 0, i32 0, i32 32, i32 0, ptr null }, section "mdebug_sites"

define void @deletes(ptr %p, i64 %n) {
; CHECK-LABEL: define void @deletes(
; CHECK-NEXT: call void @__mdebug_delete(ptr %p, ptr @[[D]])
; CHECK-NEXT: call void @__mdebug_delete_array(ptr %p, ptr @[[DA]])
; CHECK-NEXT: call void @__mdebug_delete_sized(ptr %p, i64 %n, ptr @[[DS]])
; CHECK-NEXT: call void @__mdebug_delete_array_sized(ptr %p, i64 %n, ptr @[[DAS]])
; CHECK-NEXT: call void @__mdebug_delete_aligned(ptr %p, i64 64, ptr @[[DAL]])
; CHECK-NEXT: call void @__mdebug_delete_array_aligned(ptr %p, i64 64, ptr @[[DAAL]])
; CHECK-NEXT: call void @__mdebug_delete_sized_aligned(ptr %p, i64 %n, i64 64, ptr @[[DSAL]])
; CHECK-NEXT: call void @__mdebug_delete_array_sized_aligned(ptr %p, i64 %n, i64 64, ptr @[[DASAL]])
; CHECK-NEXT: call void @__mdebug_delete_nothrow(ptr %p, ptr @_ZSt7nothrow, ptr @[[DNT]])
; CHECK-NEXT: call void @__mdebug_delete_array_nothrow(ptr %p, ptr @_ZSt7nothrow, ptr @[[DANT]])
; CHECK-NEXT: call void @__mdebug_delete_aligned_nothrow(ptr %p, i64 64, ptr @_ZSt7nothrow, ptr @[[DALNT]])
; CHECK-NEXT: call void @__mdebug_delete_array_aligned_nothrow(ptr %p, i64 64, ptr @_ZSt7nothrow, ptr @[[DAALNT]])
; CHECK-NEXT: ret void
  call void @_ZdlPv(ptr %p)
  call void @_ZdaPv(ptr %p)
  call void @_ZdlPvm(ptr %p, i64 %n)
  call void @_ZdaPvm(ptr %p, i64 %n)
  call void @_ZdlPvSt11align_val_t(ptr %p, i64 64)
  call void @_ZdaPvSt11align_val_t(ptr %p, i64 64)
  call void @_ZdlPvmSt11align_val_t(ptr %p, i64 %n, i64 64)
  call void @_ZdaPvmSt11align_val_t(ptr %p, i64 %n, i64 64)
  call void @_ZdlPvRKSt9nothrow_t(ptr %p, ptr @_ZSt7nothrow)
  call void @_ZdaPvRKSt9nothrow_t(ptr %p, ptr @_ZSt7nothrow)
  call void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 64, ptr @_ZSt7nothrow)
  call void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 64, ptr @_ZSt7nothrow)
  ret void
}

declare void @_ZdlPv(ptr)
declare void @_ZdaPv(ptr)
declare void @_ZdlPvm(ptr, i64)
declare void @_ZdaPvm(ptr, i64)
declare void @_ZdlPvSt11align_val_t(ptr, i64)
declare void @_ZdaPvSt11align_val_t(ptr, i64)
declare void @_ZdlPvmSt11align_val_t(ptr, i64, i64)
declare void @_ZdaPvmSt11align_val_t(ptr, i64, i64)
declare void @_ZdlPvRKSt9nothrow_t(ptr, ptr)
declare void @_ZdaPvRKSt9nothrow_t(ptr, ptr)
declare void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr, i64, ptr)
declare void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr, i64, ptr)

; CHECK-DAG: declare void @__mdebug_delete(ptr, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_array(ptr, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_sized(ptr, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_array_sized(ptr, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_aligned(ptr, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_array_aligned(ptr, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_sized_aligned(ptr, i64, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_array_sized_aligned(ptr, i64, i64, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_nothrow(ptr, ptr, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_array_nothrow(ptr, ptr, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_aligned_nothrow(ptr, i64, ptr, ptr){{$}}
; CHECK-DAG: declare void @__mdebug_delete_array_aligned_nothrow(ptr, i64, ptr, ptr){{$}}
