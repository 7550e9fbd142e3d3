; Spec 002 "Failure Modes", "Variant flag missing": a call without a readable
; flag is rewritten to CDP-1. A call without a flag of its own takes the flag
; of its partner (the buffer a launch launches, the launch that consumes a
; buffer), so a pair tagged on one side stays on one ABI. An unreadable flag
; counts as missing and draws a warning.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @child() {
  ret void
}

; CHECK-LABEL: define void @untagged(
; CHECK:         call ptr @__cudaCDP1GetParameterBufferV2(
; CHECK:         call i32 @__cudaCDP1LaunchDeviceV2(
define void @untagged(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  ret void
}

; CHECK-LABEL: define void @launch_tagged(
; CHECK:         call ptr @__cudaCDP2GetParameterBufferV2(
; CHECK:         call i32 @__cudaCDP2LaunchDeviceV2(
define void @launch_tagged(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null) #0
  ret void
}

; CHECK-LABEL: define void @buffer_tagged(
; CHECK:         call ptr @__cudaCDP2GetParameterBufferV2(
; CHECK:         call i32 @__cudaCDP2LaunchDeviceV2(
define void @buffer_tagged(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0) #0
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  ret void
}

; CHECK-LABEL: define void @unreadable(
; CHECK:         call ptr @__cudaCDP1GetParameterBufferV2(
; CHECK:         call i32 @__cudaCDP1LaunchDeviceV2(
; WARN: warning: call to 'cudaGetParameterBuffer' in 'unreadable' has an unreadable CDP variant flag "7"; using CDP-1
; WARN: warning: call to 'cudaLaunchDevice' in 'unreadable' has an unreadable CDP variant flag "two"; using CDP-1
define void @unreadable(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0) #1
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null) #2
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = { "nvvm.cdp.variant"="2" }
attributes #1 = { "nvvm.cdp.variant"="7" }
attributes #2 = { "nvvm.cdp.variant"="two" }
