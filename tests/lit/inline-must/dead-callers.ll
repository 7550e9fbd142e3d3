; A helper inlined into its callers and left without a use is erased, not
; inlined into: its own calls are not inlined, so the statistics and
; remarks count only the inlinings into functions that stay. @mid is
; inlined into @k (one inlining), then the two calls to @leaf that came
; with it (two more); @mid and @leaf are then dead and both go. Before,
; @mid's own two calls were inlined too, and deleted with it.
; RUN: nvpass-cli run --pipeline inline-must %s --stats --pass-remarks=inline-must 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t.err %s --check-prefix=STATS
;
; @mid2 names @leaf2 other than as a callee (it stores its address), so
; erasing it early could change what else is erased: it is inlined into
; as before (its remark appears), then erased at the end.
; RUN: FileCheck --input-file %t.err %s --check-prefix=KEPT

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK-NOT: call
; CHECK: fmul float %x, 2.000000e+00
; CHECK: fmul float {{.*}}, 2.000000e+00
; CHECK-NOT: call
; CHECK: ret void
define void @k(ptr addrspace(1) %p, float %x) {
  %v = call float @mid(float %x)
  store float %v, ptr addrspace(1) %p, align 4
  ret void
}

; CHECK-LABEL: define void @k2(
; CHECK: store ptr @leaf2, ptr %slot
define void @k2(ptr %slot, float %x) {
  %v = call float @mid2(ptr %slot, float %x)
  ret void
}

; CHECK-NOT: define internal float @mid(
define internal float @mid(float %x) alwaysinline {
  %a = call float @leaf(float %x)
  %b = call float @leaf(float %a)
  ret float %b
}

; CHECK-NOT: define internal float @mid2(
define internal float @mid2(ptr %slot, float %x) alwaysinline {
  store ptr @leaf2, ptr %slot
  %a = call float @leaf2(float %x)
  ret float %a
}

; CHECK-NOT: define internal float @leaf(
define internal float @leaf(float %x) alwaysinline {
  %m = fmul float %x, 2.0
  ret float %m
}

; @orphan has no use from the start and was inlined nowhere: it is not a
; callee the phase erases, so it stays, and its call is inlined as before.
; CHECK-LABEL: define internal float @orphan(
; CHECK-NEXT: %m.i = fmul float %x, 2.000000e+00
; CHECK-NEXT: ret float %m.i
define internal float @orphan(float %x) {
  %a = call float @leaf(float %x)
  ret float %a
}

; @leaf2's address is stored, so it stays.
; CHECK: define internal float @leaf2(
define internal float @leaf2(float %x) alwaysinline {
  %m = fadd float %x, 1.0
  ret float %m
}

; Three into @k, two into @k2, one into @mid2, one into @orphan.
; STATS: 3 inline-must - Number of internal callees deleted after inlining
; STATS: 7 inline-must - Number of call sites inlined

; REMARK: remark: 'mid' inlined into 'k'
; REMARK-COUNT-2: remark: 'leaf' inlined into 'k'
; REMARK-NOT: into 'mid'
; REMARK: remark: 'leaf' inlined into 'orphan'

; KEPT: remark: 'leaf2' inlined into 'mid2'
