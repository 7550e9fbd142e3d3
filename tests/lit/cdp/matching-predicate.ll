; Spec 002 "Matching Predicate". Kernels are recognized by the one predicate
; (ptx_kernel, "nvvm.kernel", "nvvm.annotations_transplanted", "kernel") and
; by a legacy !nvvm.annotations mark. A child that does not resolve to a
; function is not checked. Only functions lowered to PTX are rewritten: not
; available_externally ones. Calls of look-alike names and stubs already in
; the input are left alone.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define void @k_modern() "nvvm.kernel" {
  ret void
}

define void @k_transplanted() "nvvm.annotations_transplanted" {
  ret void
}

define void @k_legacy_attr() "kernel" {
  ret void
}

define void @k_annotated() {
  ret void
}

; CHECK-LABEL: define void @kinds(
; CHECK-COUNT-4: call i32 @__cudaCDP1LaunchDeviceV2(
define void @kinds(ptr %buf, %struct.dim3 %g) {
  %r1 = call i32 @cudaLaunchDevice(ptr @k_modern, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  %r2 = call i32 @cudaLaunchDevice(ptr @k_transplanted, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  %r3 = call i32 @cudaLaunchDevice(ptr @k_legacy_attr, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  %r4 = call i32 @cudaLaunchDevice(ptr @k_annotated, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  ret void
}

; A kernel pointer loaded from memory cannot be checked; the launch is
; rewritten, and its buffer gets the loaded pointer.
; CHECK-LABEL: define void @indirect(
; CHECK-NEXT:    %k = load ptr, ptr %table, align 8
; CHECK-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr %k, %struct.dim3 %g, %struct.dim3 %g, i32 0)
; CHECK-NEXT:    call i32 @__cudaCDP1LaunchDeviceV2(ptr %k, ptr [[BUF]],
define void @indirect(ptr %table, %struct.dim3 %g) {
  %k = load ptr, ptr %table, align 8
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
  %r = call i32 @cudaLaunchDevice(ptr %k, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  ret void
}

; CHECK-LABEL: define available_externally void @not_lowered(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
; CHECK-NEXT:    %r = call i32 @cudaLaunchDevice(
define available_externally void @not_lowered(%struct.dim3 %g) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
  %r = call i32 @cudaLaunchDevice(ptr @k_modern, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  ret void
}

; CHECK-LABEL: define void @untouched(
; CHECK-NEXT:    %r1 = call i32 @cudaLaunch(ptr @k_modern)
; CHECK-NEXT:    %r2 = call i32 @__cudaCDP2LaunchDeviceV2(ptr %buf, ptr null)
define void @untouched(ptr %buf) {
  %r1 = call i32 @cudaLaunch(ptr @k_modern)
  %r2 = call i32 @__cudaCDP2LaunchDeviceV2(ptr %buf, ptr null)
  ret void
}

declare i32 @cudaLaunch(ptr)
declare i32 @__cudaCDP2LaunchDeviceV2(ptr, ptr)
declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

define void @last() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k_annotated, !"kernel", i32 1}
