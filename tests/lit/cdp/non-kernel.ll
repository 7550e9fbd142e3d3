; Spec 002 "Matching Predicate": a launch whose child resolves to a function
; that is not a kernel is an error naming caller and callee, and the IR is
; left unchanged, so the CLI writes no output. Checked before any rewrite, by
; the pair and by each pass alone; a cudaGetParameterBufferV2 is reported only
; when no launch consumes it.
; RUN: not nvpass-cli run --pipeline cdp %s 2>&1 | FileCheck %s
; RUN: not nvpass-cli run --pipeline cdp-parameter-buffer %s 2>&1 | FileCheck %s
; RUN: not nvpass-cli run --pipeline cdp-launch-expander %s 2>&1 | FileCheck %s

; CHECK-NOT: define
; CHECK: error: CDP target is not a kernel: 'helper' launched from 'legacy'
; CHECK-NEXT: error: CDP target is not a kernel: 'helper' launched from 'v2'
; CHECK-NEXT: error: CDP target is not a kernel: 'other' launched from 'unconsumed'
; CHECK-NEXT: error: pipeline reported errors; no output written
; CHECK-NOT: define

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @kernel() {
  ret void
}

define void @helper() {
  ret void
}

define void @other() {
  ret void
}

define void @legacy(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
  %r = call i32 @cudaLaunchDevice(ptr @helper, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  ret void
}

define void @v2(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBufferV2(ptr @helper, %struct.dim3 %g, %struct.dim3 %b, i32 0)
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null)
  ret void
}

define ptr @unconsumed(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBufferV2(ptr @other, %struct.dim3 %g, %struct.dim3 %b, i32 0)
  ret ptr %buf
}

; A good launch in the same module is not rewritten either.
define void @good(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0)
  %r = call i32 @cudaLaunchDevice(ptr @kernel, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare ptr @cudaGetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
declare i32 @cudaLaunchDeviceV2(ptr, ptr)
