; Pointer fields of a local aggregate that does not escape (a `this` object
; at -O0, here after inlining): a load of a field has the meet of the
; pointers stored at exactly its bytes, also when the object's address goes
; through a spill slot of its own.
; RUN: nvpass-cli run -j 1 --pipeline memspace-opt %s 2>/dev/null | FileCheck %s
; The analysis on four threads gives the same output.
; RUN: nvpass-cli run -j 4 --pipeline memspace-opt %s 2>/dev/null | FileCheck %s
%struct.Obj = type { ptr, i32, ptr }
@smem = internal addrspace(3) global [64 x i32] undef

; CHECK-LABEL: define ptx_kernel void @fields(
; CHECK: %ts = load ptr, ptr addrspace(5) %{{[0-9a-z.]+}}
; CHECK-NEXT: %[[TS:[0-9]+]] = addrspacecast ptr %ts to ptr addrspace(3)
; CHECK: store i32 1, ptr addrspace(3) %[[TS]]
; CHECK: %out = load ptr, ptr addrspace(5) %{{[0-9a-z.]+}}
; CHECK-NEXT: %[[OUT:[0-9]+]] = addrspacecast ptr %out to ptr addrspace(1)
; CHECK: store i32 2, ptr addrspace(1) %[[OUT]]
define ptx_kernel void @fields(ptr %p) {
  %obj = alloca %struct.Obj
  %this.addr = alloca ptr
  store ptr %obj, ptr %this.addr
  %f0 = getelementptr inbounds %struct.Obj, ptr %obj, i32 0, i32 0
  store ptr addrspacecast (ptr addrspace(3) @smem to ptr), ptr %f0
  %f2 = getelementptr inbounds %struct.Obj, ptr %obj, i32 0, i32 2
  store ptr %p, ptr %f2
  %f1 = getelementptr inbounds %struct.Obj, ptr %obj, i32 0, i32 1
  store i32 7, ptr %f1
  %this = load ptr, ptr %this.addr
  %g0 = getelementptr inbounds %struct.Obj, ptr %this, i32 0, i32 0
  %ts = load ptr, ptr %g0
  store i32 1, ptr %ts
  %g2 = getelementptr inbounds %struct.Obj, ptr %this, i32 0, i32 2
  %out = load ptr, ptr %g2
  store i32 2, ptr %out
  ret void
}

; Two different spaces stored into one field: generic.
; CHECK-LABEL: define ptx_kernel void @conflict(
; CHECK: %v = load ptr, ptr addrspace(5)
; CHECK-NEXT: store i32 1, ptr %v
define ptx_kernel void @conflict(ptr %p, i1 %c) {
  %obj = alloca %struct.Obj
  %f0 = getelementptr inbounds %struct.Obj, ptr %obj, i32 0, i32 0
  store ptr %p, ptr %f0
  store ptr addrspacecast (ptr addrspace(3) @smem to ptr), ptr %f0
  %v = load ptr, ptr %f0
  store i32 1, ptr %v
  ret void
}

; An integer store overlapping the pointer field: its bits are no pointer.
; CHECK-LABEL: define ptx_kernel void @overlap(
; CHECK: %v = load ptr, ptr addrspace(5)
; CHECK-NEXT: store i32 1, ptr %v
define ptx_kernel void @overlap(ptr %p) {
  %obj = alloca %struct.Obj
  store ptr %p, ptr %obj
  %hi = getelementptr inbounds i8, ptr %obj, i64 4
  store i32 0, ptr %hi
  %v = load ptr, ptr %obj
  store i32 1, ptr %v
  ret void
}

; A variable index may reach the pointer field.
; CHECK-LABEL: define ptx_kernel void @variable(
; CHECK: %v = load ptr, ptr addrspace(5)
; CHECK-NEXT: store i32 1, ptr %v
define ptx_kernel void @variable(ptr %p, i64 %i) {
  %obj = alloca [4 x ptr]
  store ptr %p, ptr %obj
  %e = getelementptr inbounds [4 x ptr], ptr %obj, i64 0, i64 %i
  store ptr null, ptr %e
  %v = load ptr, ptr %obj
  store i32 1, ptr %v
  ret void
}

; The object escapes to a call, which may store any pointer into it.
; CHECK-LABEL: define ptx_kernel void @escapes(
; CHECK: %v = load ptr, ptr addrspace(5)
; CHECK-NEXT: store i32 1, ptr %v
declare void @init(ptr)
define ptx_kernel void @escapes(ptr %p) {
  %obj = alloca %struct.Obj
  store ptr %p, ptr %obj
  call void @init(ptr %obj)
  %v = load ptr, ptr %obj
  store i32 1, ptr %v
  ret void
}

; The object's address spilled into a slot that also holds another
; object: the loads of the slot may be either.
; CHECK-LABEL: define ptx_kernel void @shared_spill(
; CHECK: %v = load ptr, ptr addrspace(5)
; CHECK-NEXT: store i32 1, ptr %v
define ptx_kernel void @shared_spill(ptr %p, ptr %q) {
  %a = alloca ptr
  %b = alloca ptr
  store ptr %p, ptr %a
  store ptr addrspacecast (ptr addrspace(3) @smem to ptr), ptr %b
  %slot = alloca ptr
  store ptr %a, ptr %slot
  store ptr %b, ptr %slot
  %o = load ptr, ptr %slot
  %v = load ptr, ptr %o
  store i32 1, ptr %v
  ret void
}
