; A second run reuses the casts the first run placed: the casts of entry
; allocas sit between the allocas and the argument casts, and the search
; for an argument's cast must look past them (generated seed 79 of the
; property test). Two runs in a row print the same module as one.
; RUN: nvpass-cli run --pipeline memspace-opt %s | FileCheck %s
; RUN: nvpass-cli run --pipeline memspace-opt %s -o %t && nvpass-cli run --pipeline memspace-opt %t | FileCheck %s
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %l = alloca i64
; CHECK-NEXT: %[[L:[0-9]+]] = addrspacecast ptr %l to ptr addrspace(5)
; CHECK-NEXT: %[[A:[0-9]+]] = addrspacecast ptr %a to ptr addrspace(1)
; CHECK-NEXT: %w = addrspacecast ptr %l to ptr addrspace(1)
; CHECK-NOT: addrspacecast
; CHECK: load i32, ptr addrspace(1) %[[A]]
; CHECK: load i64, ptr addrspace(5) %[[L]]
define ptx_kernel void @k(ptr %a) {
entry:
  %l = alloca i64
  %w = addrspacecast ptr %l to ptr addrspace(1)
  %x = load i32, ptr %a
  %y = load i64, ptr %l
  ret void
}

; A cast of a cast has the element of the innermost source, the pointer the
; folder's rule (2) leaves in its place (generated seed 146): here local, so
; the select is retagged in the first run already.
; CHECK-LABEL: define void @chain(
; CHECK: %s = select i1 %c, ptr addrspace(5) %{{[0-9]+}}, ptr addrspace(5) %{{[0-9]+}}
; CHECK-NEXT: load i32, ptr addrspace(5) %s
define void @chain(i1 %c) {
  %l = alloca i32
  %m = alloca i32
  %g = addrspacecast ptr %l to ptr addrspace(1)
  %b = addrspacecast ptr addrspace(1) %g to ptr
  %s = select i1 %c, ptr %b, ptr %m
  %v = load i32, ptr %s
  ret void
}
