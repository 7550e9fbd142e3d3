; Pointers loaded from a kernel's byval (or grid-constant) aggregate
; parameter are kernel arguments: global (CUDA semantics, as for kernel
; pointer parameters), provided the kernel only loads from the aggregate.
; RUN: nvpass-cli run --pipeline memspace-opt %s | FileCheck %s
%struct.Args = type { ptr, ptr, i32 }

; CHECK-LABEL: define ptx_kernel void @byval_fields(
; CHECK: %in = load ptr, ptr %pin
; CHECK: %[[IN:[0-9]+]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK: %out = load ptr, ptr %pout
; CHECK: %[[OUT:[0-9]+]] = addrspacecast ptr %out to ptr addrspace(1)
; CHECK: %x = load float, ptr addrspace(1) %[[IN]]
; CHECK: %q = getelementptr float, ptr addrspace(1) %[[OUT]], i64 1
; CHECK: store float %x, ptr addrspace(1) %q
define ptx_kernel void @byval_fields(ptr byval(%struct.Args) align 8 %a) {
  %pin = getelementptr inbounds %struct.Args, ptr %a, i32 0, i32 0
  %in = load ptr, ptr %pin
  %pout = getelementptr inbounds %struct.Args, ptr %a, i32 0, i32 1
  %out = load ptr, ptr %pout
  %x = load float, ptr %in
  %q = getelementptr float, ptr %out, i64 1
  store float %x, ptr %q
  ret void
}

; CHECK-LABEL: define ptx_kernel void @grid_constant(
; CHECK: %p = load ptr, ptr addrspace(4) %{{[0-9]+}}
; CHECK: store i32 1, ptr addrspace(1) %{{[0-9]+}}
define ptx_kernel void @grid_constant(ptr byval(%struct.Args) "nvvm.grid_constant" %a) {
  %p = load ptr, ptr %a
  store i32 1, ptr %p
  ret void
}

; The kernel writes the aggregate: the field may hold any pointer now.
; CHECK-LABEL: define ptx_kernel void @written(
; CHECK: store ptr %l, ptr %a
; CHECK: %p = load ptr, ptr %a
; CHECK-NEXT: store i32 1, ptr %p
define ptx_kernel void @written(ptr byval(%struct.Args) align 8 %a) {
  %l = alloca i32
  store ptr %l, ptr %a
  %p = load ptr, ptr %a
  store i32 1, ptr %p
  ret void
}

; The aggregate escapes to a call, which may write it.
; CHECK-LABEL: define ptx_kernel void @escapes(
; CHECK: %p = load ptr, ptr %a
; CHECK-NEXT: store i32 1, ptr %p
declare void @touch(ptr)
define ptx_kernel void @escapes(ptr byval(%struct.Args) align 8 %a) {
  call void @touch(ptr %a)
  %p = load ptr, ptr %a
  store i32 1, ptr %p
  ret void
}

; Not a kernel: the byval copy is the caller's, its fields may point anywhere.
; CHECK-LABEL: define void @device(
; CHECK: %p = load ptr, ptr %a
; CHECK-NEXT: store i32 1, ptr %p
define void @device(ptr byval(%struct.Args) align 8 %a) {
  %p = load ptr, ptr %a
  store i32 1, ptr %p
  ret void
}
