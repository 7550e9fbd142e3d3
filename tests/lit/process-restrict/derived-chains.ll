; Spec 004 "Matching Predicate": a value is derived iff it arrives through
; GEP, bitcast or addrspacecast from a restricted root. Every load, store,
; atomicrmw and cmpxchg through a derived pointer is stamped; a pointer
; used as a stored value, as a GEP index or through ptrtoint is not an
; access through it.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @chains(
; CHECK: %g1 = getelementptr inbounds i8, ptr %a, i64 16
; CHECK-NEXT: %g2 = getelementptr inbounds [4 x i32], ptr %g1, i64 0, i64 %i
; CHECK-NEXT: %c = addrspacecast ptr %g2 to ptr addrspace(1)
; CHECK-NEXT: %bc = bitcast ptr addrspace(1) %c to ptr addrspace(1)
; CHECK-NEXT: %v = load i32, ptr addrspace(1) %bc, align 4, !alias.scope [[LA:![0-9]+]], !noalias [[LB:![0-9]+]]
; CHECK-NEXT: %old = atomicrmw add ptr %b, i32 %v monotonic, align 4, !alias.scope [[LB]], !noalias [[LA]]
; CHECK-NEXT: %pair = cmpxchg ptr %g2, i32 0, i32 %old seq_cst seq_cst, align 4, !alias.scope [[LA]], !noalias [[LB]]
; CHECK-NEXT: store ptr %a, ptr %other, align 8{{$}}
; CHECK-NEXT: %int = ptrtoint ptr %b to i64
; CHECK-NEXT: %back = inttoptr i64 %int to ptr
; CHECK-NEXT: store i32 1, ptr %back, align 4{{$}}
; CHECK-NEXT: %v2 = load volatile i32, ptr %b, align 4, !alias.scope [[LB]], !noalias [[LA]]
; CHECK-NEXT: ret void

define void @chains(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="2" %b, ptr %other, i64 %i) {
  %g1 = getelementptr inbounds i8, ptr %a, i64 16
  %g2 = getelementptr inbounds [4 x i32], ptr %g1, i64 0, i64 %i
  %c = addrspacecast ptr %g2 to ptr addrspace(1)
  %bc = bitcast ptr addrspace(1) %c to ptr addrspace(1)
  %v = load i32, ptr addrspace(1) %bc, align 4
  %old = atomicrmw add ptr %b, i32 %v monotonic, align 4
  %pair = cmpxchg ptr %g2, i32 0, i32 %old seq_cst seq_cst, align 4
  store ptr %a, ptr %other, align 8
  %int = ptrtoint ptr %b to i64
  %back = inttoptr i64 %int to ptr
  store i32 1, ptr %back, align 4
  %v2 = load volatile i32, ptr %b, align 4
  ret void
}
