; A dead caller erased instead of inlined into gets no inlined copies, so
; no debug locations are made for them: only the four locations of the
; code inlined into @k exist (@mid's two calls at line 2, @leaf's body
; under each of them), not two more for @leaf's copies in @mid, which
; would name nothing once @mid is gone.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %m.i1 = fmul float %x, 2.000000e+00, !dbg ![[A:[0-9]+]]
; CHECK-NEXT: %m.i = fmul float %m.i1, 2.000000e+00, !dbg ![[B:[0-9]+]]
; CHECK-NOT: define
; CHECK: ![[K:[0-9]+]] = !DILocation(line: 2, column: 3, scope: !10)
; CHECK: ![[C1:[0-9]+]] = !DILocation(line: 6, column: 3, scope: !12, inlinedAt: ![[K]])
; CHECK-NEXT: ![[C2:[0-9]+]] = !DILocation(line: 7, column: 3, scope: !12, inlinedAt: ![[K]])
; CHECK-NEXT: ![[B]] = !DILocation(line: 10, column: 3, scope: !15, inlinedAt: ![[C2]])
; CHECK-NEXT: ![[A]] = !DILocation(line: 10, column: 3, scope: !15, inlinedAt: ![[C1]])
; CHECK-NOT: inlinedAt:
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %p, float %x) !dbg !10 {
  %v = call float @mid(float %x), !dbg !11
  store float %v, ptr addrspace(1) %p, align 4, !dbg !11
  ret void, !dbg !11
}

define internal float @mid(float %x) alwaysinline !dbg !12 {
  %a = call float @leaf(float %x), !dbg !13
  %b = call float @leaf(float %a), !dbg !14
  ret float %b, !dbg !14
}

define internal float @leaf(float %x) alwaysinline !dbg !15 {
  %m = fmul float %x, 2.0, !dbg !16
  ret float %m, !dbg !16
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.cu", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 2}
!4 = !DISubroutineType(types: !5)
!5 = !{}
!10 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DILocation(line: 2, column: 3, scope: !10)
!12 = distinct !DISubprogram(name: "mid", scope: !1, file: !1, line: 5, type: !4, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
!13 = !DILocation(line: 6, column: 3, scope: !12)
!14 = !DILocation(line: 7, column: 3, scope: !12)
!15 = distinct !DISubprogram(name: "leaf", scope: !1, file: !1, line: 9, type: !4, scopeLine: 9, spFlags: DISPFlagDefinition, unit: !0)
!16 = !DILocation(line: 10, column: 3, scope: !15)
