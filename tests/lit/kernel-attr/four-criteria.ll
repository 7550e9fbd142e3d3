; The kernel predicate (spec 002 "Kernel Identity"): each of the four
; criteria alone makes a kernel, and kernel-attr stamps "nvvm.kernel" on it.
; RUN: nvpass-cli run --pipeline kernel-attr %s | FileCheck %s

; Criterion 1: the ptx_kernel calling convention.
; CHECK-LABEL: define ptx_kernel void @by_cc(
; CHECK-SAME: "nvvm.kernel"
define ptx_kernel void @by_cc() {
  ret void
}

; Criterion 2: "nvvm.kernel" already present: left as is (value kept).
; CHECK-LABEL: define void @by_attr(
; CHECK-SAME: "nvvm.kernel"="1"
define void @by_attr() "nvvm.kernel"="1" {
  ret void
}

; Criterion 3: "nvvm.annotations_transplanted".
; CHECK-LABEL: define void @by_transplanted(
; CHECK-SAME: "nvvm.annotations_transplanted" "nvvm.kernel"
define void @by_transplanted() "nvvm.annotations_transplanted" {
  ret void
}

; Criterion 4: the legacy "kernel" string attribute.
; CHECK-LABEL: define void @by_legacy_attr(
; CHECK-SAME: "kernel" "nvvm.kernel"
define void @by_legacy_attr() "kernel" {
  ret void
}

; Declarations are stamped too.
; CHECK-LABEL: declare ptx_kernel void @declared_kernel(
; CHECK-SAME: "nvvm.kernel"
declare ptx_kernel void @declared_kernel()

; Not kernels: a device function, ptx_device, and look-alike attributes.
; CHECK-LABEL: define void @device(
; CHECK-NOT: nvvm.kernel"
; CHECK: ret void
define void @device() {
  ret void
}
; CHECK-LABEL: define ptx_device void @ptx_device(
; CHECK-NOT: "nvvm.kernel"
; CHECK: ret void
define ptx_device void @ptx_device() {
  ret void
}
; CHECK-LABEL: define void @kernel(
; CHECK-SAME: "nvvm.kernels" "kernel.x"
; CHECK-NOT: "nvvm.kernel"
; CHECK: ret void
define void @kernel() "nvvm.kernels" "kernel.x" {
  ret void
}
