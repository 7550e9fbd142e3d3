; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s
; CHECK: define ptx_kernel void @k(ptr addrspace(1) noalias captures(none) %out, i32 range(i32 0, 1024) %n) !dbg !5 {
; CHECK: %tid = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
; CHECK-NEXT: #dbg_value(i32 %tid, !10, !DIExpression(), !9)
; CHECK-NEXT: %ok = icmp samesign ult i32 %tid, %n, !dbg !9
; CHECK: %idx = zext nneg i32 %tid to i64
; CHECK: getelementptr inbounds nuw float
; CHECK: !5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
; CHECK: !9 = !DILocation(line: 4, column: 13, scope: !5)
; Syntax newer than LLVM 19's writer, seen in the wild: the ptx_kernel
; calling convention, captures(...), range(...) attributes, and debug
; records. print(parse(x)) must be a fixpoint and keep all of it.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) noalias captures(none) %out, i32 range(i32 0, 1024) %n) !dbg !5 {
entry:
  %tid = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
    #dbg_value(i32 %tid, !10, !DIExpression(), !9)
  %ok = icmp samesign ult i32 %tid, %n, !dbg !9
  br i1 %ok, label %store, label %done, !dbg !9

store:
  %idx = zext nneg i32 %tid to i64
  %p = getelementptr inbounds nuw float, ptr addrspace(1) %out, i64 %idx
  store float 1.000000e+00, ptr addrspace(1) %p, align 4, !dbg !11
  br label %done

done:
  ret void, !dbg !11
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocation(line: 4, column: 13, scope: !5)
!10 = !DILocalVariable(name: "tid", scope: !5, file: !1, line: 4, type: !8)
!11 = !DILocation(line: 5, column: 20, scope: !5)
