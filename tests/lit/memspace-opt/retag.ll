; Kernel pointer parameters are global, allocas local, addrspace globals
; their space; GEP/phi/select chains are retagged and loads/stores use the
; concrete pointer; calls get a cast back to generic.
; RUN: nvpass-cli run --pipeline memspace-opt %s | FileCheck %s
@s = internal addrspace(3) global [8 x i32] zeroinitializer
declare void @use(ptr)

define ptx_kernel void @k(ptr %g, i1 %c, i64 %i) {
; CHECK: %[[G:[0-9]+]] = addrspacecast ptr %g to ptr addrspace(1)
; CHECK: %a = getelementptr i32, ptr addrspace(1) %[[G]], i64 %i
; CHECK: %v = load i32, ptr addrspace(1) %a
  %a = getelementptr i32, ptr %g, i64 %i
  %v = load i32, ptr %a
; CHECK: %b = getelementptr i32, ptr addrspace(3) @s, i64 %i
; CHECK: store i32 %v, ptr addrspace(3) %b
  %b = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 %i
  store i32 %v, ptr %b
; CHECK: %sel = select i1 %c, ptr addrspace(1) %a, ptr addrspace(1)
  %a2 = getelementptr i32, ptr %g, i64 1
  %sel = select i1 %c, ptr %a, ptr %a2
  store i32 1, ptr %sel
; CHECK: %[[BACK:[0-9]+]] = addrspacecast ptr addrspace(1) %sel to ptr
; CHECK: call void @use(ptr %[[BACK]])
  call void @use(ptr %sel)
; CHECK: %l = alloca i32
; CHECK: store i32 2, ptr addrspace(5)
  %l = alloca i32
  store i32 2, ptr %l
  ret void
}
