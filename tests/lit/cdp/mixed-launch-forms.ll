; One module calling both cudaLaunchDevice (six operands) and
; cudaLaunchDeviceV2(buffer, stream) with one variant. Every call of a stub
; must use one signature (ptxas rejects a function with two prototypes), so
; a V2 launch takes the child and geometry of its cudaGetParameterBufferV2
; (or of the stub that buffer was already rewritten to) and becomes the
; six-operand form. A V2 launch with nothing to thread (a legacy buffer)
; stays unrewritten, with a warning, when its stub has the six-operand
; signature in this module; with a variant of its own it is retargeted as
; it is. Running `cdp` again changes nothing.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp,cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp-launch-expander,cdp-parameter-buffer %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t && nvpass-cli run --pipeline cdp %t | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @child(i32 %x) {
  ret void
}

; CHECK-LABEL: define void @six(
; CHECK-NEXT:    [[B:%.*]] = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 0){{.*}}
; CHECK-NEXT:    store i32 1, ptr [[B]], align 4
; CHECK-NEXT:    %r = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr [[B]], %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null){{.*}}
define void @six(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 4) #0
  store i32 1, ptr %buf, align 4
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null) #0
  ret void
}

; The launch's buffer goes through a cast; the stream is the launch's own.
; Geometry comes from the buffer, in a block dominating the launch.
; CHECK-LABEL: define i32 @two(
; CHECK:         %buf = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 %smem){{.*}}
; CHECK:       go:
; CHECK-NEXT:    %buf.gen = addrspacecast ptr addrspace(1) %buf.g to ptr
; CHECK-NEXT:    [[R:%.*]] = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr %buf.gen, %struct.dim3 %g, %struct.dim3 %b, i32 %smem, ptr %s){{.*}}
; CHECK-NEXT:    ret i32 [[R]]
define i32 @two(ptr %s, i32 %smem, %struct.dim3 %g, %struct.dim3 %b) {
entry:
  %buf = call ptr @cudaGetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 %smem) #0
  %buf.g = addrspacecast ptr %buf to ptr addrspace(1)
  store i32 2, ptr addrspace(1) %buf.g, align 4
  br label %go

go:
  %buf.gen = addrspacecast ptr addrspace(1) %buf.g to ptr
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf.gen, ptr %s) #0
  ret i32 %r
}

; Already rewritten buffer stub (an earlier run of the buffer pass).
; CHECK-LABEL: define void @from_stub(
; CHECK-NEXT:    %buf = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %g, i32 8)
; CHECK-NEXT:    {{%.*}} = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 8, ptr null){{.*}}
define void @from_stub(%struct.dim3 %g) {
  %buf = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %g, i32 8)
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null) #0
  ret void
}

; Nothing to thread, and __cudaCDP2LaunchDeviceV2 has six operands here.
; WARN: warning: 'cudaLaunchDeviceV2' in 'legacy_cdp2' is not rewritten: its child and geometry cannot be threaded from a dominating cudaGetParameterBufferV2, and '__cudaCDP2LaunchDeviceV2' is called with launch geometry in this module
; CHECK-LABEL: define void @legacy_cdp2(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8){{.*}}
; CHECK-NEXT:    %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null){{.*}}
define void @legacy_cdp2() {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8) #0
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null) #0
  ret void
}

; Nothing to thread, but the CDP-1 stub is only called this way.
; WARN-NOT: 'legacy_cdp1' is not rewritten
; CHECK-LABEL: define void @legacy_cdp1(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8){{.*}}
; CHECK-NEXT:    %r = call i32 @__cudaCDP1LaunchDeviceV2(ptr %buf, ptr null){{.*}}
define void @legacy_cdp1() {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8) #1
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null) #1
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare ptr @cudaGetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
declare ptr @__cudaCDP2GetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
declare i32 @cudaLaunchDeviceV2(ptr, ptr)

; One declaration, one signature per stub.
; CHECK-DAG: declare i32 @__cudaCDP2LaunchDeviceV2(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
; CHECK-DAG: declare i32 @__cudaCDP1LaunchDeviceV2(ptr, ptr)

attributes #0 = { "nvvm.cdp.variant"="2" }
attributes #1 = { "nvvm.cdp.variant"="1" }
