; The addrspacecast folder's three rules.
; RUN: nvpass-cli run --pipeline memspace-opt %s | FileCheck %s
declare void @sink1(ptr addrspace(1))
declare void @sink3(ptr addrspace(3))

; Rule 1: a cast to the space the (retagged) operand already has is dropped.
; CHECK-LABEL: define void @rule1(
; CHECK: %q = getelementptr i8, ptr addrspace(3) %s, i64 4
; CHECK-NEXT: call void @sink3(ptr addrspace(3) %q)
define void @rule1(ptr addrspace(3) %s) {
  %g = addrspacecast ptr addrspace(3) %s to ptr
  %q = getelementptr i8, ptr %g, i64 4
  %back = addrspacecast ptr %q to ptr addrspace(3)
  call void @sink3(ptr addrspace(3) %back)
  ret void
}

; Rule 2: a cast of a cast collapses to the innermost source.
; CHECK-LABEL: define void @rule2(
; CHECK-NEXT: call void @sink1(ptr addrspace(1) %p)
define void @rule2(ptr addrspace(1) %p) {
  %g = addrspacecast ptr addrspace(1) %p to ptr
  %b = addrspacecast ptr %g to ptr addrspace(1)
  call void @sink1(ptr addrspace(1) %b)
  ret void
}

; Rule 3: casts of a kernel pointer parameter to global share one view.
; CHECK-LABEL: define ptx_kernel void @rule3(
; CHECK: %[[V:[0-9a-z]+]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NOT: addrspacecast
; CHECK: call void @sink1(ptr addrspace(1) %[[V]])
; CHECK: call void @sink1(ptr addrspace(1) %[[V]])
define ptx_kernel void @rule3(ptr %p, i1 %c) {
  br i1 %c, label %a, label %b
a:
  %x = addrspacecast ptr %p to ptr addrspace(1)
  call void @sink1(ptr addrspace(1) %x)
  br label %b
b:
  %y = addrspacecast ptr %p to ptr addrspace(1)
  call void @sink1(ptr addrspace(1) %y)
  ret void
}
