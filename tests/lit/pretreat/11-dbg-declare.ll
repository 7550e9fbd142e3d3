; Rule 11 (normalize_dbg_declare): a dbg.declare of an undef/poison address
; (storage gone) becomes dbg.value; a declare of a live alloca stays (that
; conversion needs alloca promotion, which pretreat does not do).
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.dbg.declare(metadata, metadata, metadata)

; CHECK-LABEL: define void @f(i32 %x)
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    call void @llvm.dbg.declare(metadata ptr %a, metadata ![[A:[0-9]+]], metadata !DIExpression()), !dbg
; CHECK-NEXT:    store i32 %x, ptr %a
; CHECK-NEXT:    call void @llvm.dbg.value(metadata ptr poison, metadata ![[B:[0-9]+]], metadata !DIExpression()), !dbg
; CHECK-NEXT:    call void @llvm.dbg.value(metadata ptr undef, metadata ![[B]], metadata !DIExpression()), !dbg
; CHECK-NEXT:    ret void
define void @f(i32 %x) !dbg !5 {
  %a = alloca i32
  call void @llvm.dbg.declare(metadata ptr %a, metadata !8, metadata !DIExpression()), !dbg !10
  store i32 %x, ptr %a
  call void @llvm.dbg.declare(metadata ptr poison, metadata !9, metadata !DIExpression()), !dbg !10
  call void @llvm.dbg.declare(metadata ptr undef, metadata !9, metadata !DIExpression()), !dbg !10
  ret void
}

; CHECK: declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "t.cu", directory: "/tmp")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !2)
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DILocalVariable(name: "a", scope: !5, file: !1, line: 2, type: !7)
!9 = !DILocalVariable(name: "b", scope: !5, file: !1, line: 3, type: !7)
!10 = !DILocation(line: 2, column: 3, scope: !5)
