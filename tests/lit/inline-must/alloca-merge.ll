; Spec 001 "Alloca Merging": allocas that two different inlined call sites
; bring in cannot be live at the same time, so the second reuses the first
; (same aggregate type, enough alignment; scalars are left for ptxas to
; promote to registers). The caller's own allocas and allocas of
; an enclosing inlined call are never reused.
; `disable-inlined-alloca-merging` keeps every alloca.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s --check-prefix=MERGE
; RUN: nvpass-cli run --pipeline inline-must --disable-inlined-alloca-merging %s | FileCheck %s --check-prefix=KEEP

define internal float @helper(float %x) alwaysinline {
  %buf = alloca [16 x float], align 4
  store float %x, ptr %buf, align 4
  %v = load float, ptr %buf, align 4
  ret float %v
}

define internal float @small(float %x) alwaysinline {
  %tmp = alloca float, align 4
  store float %x, ptr %tmp, align 4
  %v = load float, ptr %tmp, align 4
  ret float %v
}

; @outer's own buffer is live while its inlined @helper call runs: the two
; must stay distinct.
define internal float @outer(float %x) alwaysinline {
  %mine = alloca [16 x float], align 4
  store float %x, ptr %mine, align 4
  %h = call float @helper(float %x)
  %v = load float, ptr %mine, align 4
  %s = fadd float %h, %v
  ret float %s
}

; MERGE-LABEL: define float @twice(
; MERGE-DAG: %own = alloca [16 x float], align 4
; MERGE-DAG: %buf.i = alloca [16 x float], align 4
; MERGE-DAG: %tmp.i = alloca float, align 4
; MERGE-NOT: alloca
; MERGE: store float %x, ptr %buf.i
; MERGE: store float %y, ptr %buf.i
; MERGE: store float %z, ptr %tmp.i
; MERGE: ret float
; KEEP-LABEL: define float @twice(
; KEEP-COUNT-4: alloca
; KEEP-NOT: alloca
; KEEP: ret float
define float @twice(float %x, float %y, float %z) {
  %own = alloca [16 x float], align 4
  store float 1.0, ptr %own, align 4
  %a = call float @helper(float %x)
  %b = call float @helper(float %y)
  %c = call float @small(float %z)
  %s = fadd float %a, %b
  %t = fadd float %s, %c
  ret float %t
}

; Nested: the top-level @helper call, the last call and so inlined first,
; brings %buf.i. @outer then brings %mine and, inlining its own @helper
; call, a second [16 x float]: that one reuses %buf.i (the two are never
; live at once), while %mine, live across the nested call, stays distinct.
; MERGE-LABEL: define float @nested(
; MERGE-DAG: %mine.i = alloca [16 x float], align 4
; MERGE-DAG: %buf.i = alloca [16 x float], align 4
; MERGE-NOT: alloca
; MERGE: store float %x, ptr %mine.i
; MERGE: store float %x, ptr %buf.i
; MERGE: store float %s.i, ptr %buf.i
; MERGE: ret float
define float @nested(float %x) {
  %a = call float @outer(float %x)
  %b = call float @helper(float %a)
  ret float %b
}
