; The call site's !alias.scope and !noalias lists carry over to the memory
; accesses inlined from it (merged with lists the callee already had), as
; LLVM's inliner does, so scoped-noalias facts about the call survive.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal void @copy(ptr %d, ptr %s) alwaysinline {
  %v = load float, ptr %s, align 4
  store float %v, ptr %d, align 4, !noalias !5
  %w = fadd float %v, 1.0
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK: load float, ptr %s, align 4, !alias.scope ![[AS:[0-9]+]], !noalias ![[NA:[0-9]+]]
; CHECK: store float %v.i, ptr %d, align 4, !noalias ![[MERGED:[0-9]+]], !alias.scope ![[AS]]
; CHECK: %w.i = fadd float %v.i, 1.000000e+00{{$}}
; CHECK: ![[AS]] = !{![[S1:[0-9]+]]}
; CHECK: ![[NA]] = !{![[S2:[0-9]+]]}
; CHECK: ![[MERGED]] = !{![[S3:[0-9]+]], ![[S2]]}
define void @k(ptr %d, ptr %s) {
  call void @copy(ptr %d, ptr %s), !alias.scope !3, !noalias !4
  ret void
}

!0 = distinct !{!0, !"dom"}
!1 = distinct !{!1, !0, !"a"}
!2 = distinct !{!2, !0, !"b"}
!3 = !{!1}
!4 = !{!2}
!5 = !{!6}
!6 = distinct !{!6, !0, !"c"}
