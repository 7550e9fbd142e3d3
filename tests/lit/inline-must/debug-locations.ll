; Inlined instructions keep their source locations, now with `inlinedAt`
; naming the call site (nested for code that was itself inlined); debug
; records are rewritten the same way. The result passes opt-19's verifier,
; which rejects callee locations left without `inlinedAt`.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal float @inner(float %x) alwaysinline !dbg !10 {
  %m = fmul float %x, 2.0, !dbg !11
  ret float %m, !dbg !11
}

define internal float @helper(float %x) alwaysinline !dbg !12 {
    #dbg_value(float %x, !13, !DIExpression(), !14)
  %a = fadd float %x, 1.0, !dbg !14
  %b = call float @inner(float %a), !dbg !15
  ret float %b, !dbg !15
}

; CHECK-LABEL: define void @k(
; CHECK: #dbg_value(float %x, ![[VAR:[0-9]+]], !DIExpression(), ![[L14:[0-9]+]])
; CHECK: fadd float %x, 1.000000e+00, !dbg ![[L14]]
; CHECK: fmul float {{.*}}, 2.000000e+00, !dbg ![[L11:[0-9]+]]
; CHECK-NOT: call float @helper
; CHECK: ret void
define void @k(ptr addrspace(1) %out, float %x) !dbg !16 {
  %r = call float @helper(float %x), !dbg !17
  store float %r, ptr addrspace(1) %out, align 4, !dbg !17
  ret void, !dbg !17
}

; A call without a location: inlined code loses its locations and records.
; CHECK-LABEL: define void @k2(
; CHECK-NOT: #dbg_value
; CHECK-NOT: !dbg
; CHECK: ret void
define void @k2(ptr addrspace(1) %out, float %x) {
  %r = call float @helper(float %x)
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; The locations, after the last function:
; CHECK-DAG: ![[CALL:[0-9]+]] = !DILocation(line: 20, column: 3, scope: !{{[0-9]+}})
; CHECK-DAG: ![[L14]] = !DILocation(line: 7, column: 10, scope: !12, inlinedAt: ![[CALL]])
; CHECK-DAG: ![[L15:[0-9]+]] = !DILocation(line: 8, column: 10, scope: !12, inlinedAt: ![[CALL]])
; CHECK-DAG: ![[L11]] = !DILocation(line: 3, column: 5, scope: !10, inlinedAt: ![[L15]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !2)
!5 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!10 = distinct !DISubprogram(name: "inner", scope: !1, file: !1, line: 2, type: !4, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = !DILocation(line: 3, column: 5, scope: !10)
!12 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 6, type: !4, scopeLine: 6, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!13 = !DILocalVariable(name: "x", arg: 1, scope: !12, file: !1, line: 6, type: !5)
!14 = !DILocation(line: 7, column: 10, scope: !12)
!15 = !DILocation(line: 8, column: 10, scope: !12)
!16 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 19, type: !4, scopeLine: 19, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!17 = !DILocation(line: 20, column: 3, scope: !16)
