source_filename = "m.c"

define void @f(i32 %x, ptr %p) !dbg !5 {
entry:
    #dbg_value(i32 %x, !9, !DIExpression(), !11)
    #dbg_declare(ptr %p, !9, !DIExpression(DW_OP_plus_uconst, 4), !11)
    #dbg_value(!DIArgList(i32 %x, i32 1), !9, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !11)
  store i32 %x, ptr %p, align 4, !DIAssignID !13
    #dbg_assign(i32 %x, !9, !DIExpression(), !13, ptr %p, !DIExpression(), !11)
    #dbg_label(!12, !11)
  ret void, !dbg !11
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!named.empty = !{}
!escaped\5Cname = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang, \22quoted\22", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2, nameTableKind: None)
!1 = !DIFile(filename: "m.c", directory: "/tmp")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 1, type: !8)
!11 = !DILocation(line: 2, column: 7, scope: !5)
!12 = !DILabel(scope: !5, name: "L", file: !1, line: 3)
!13 = distinct !DIAssignID()
!14 = !{!15, !"s", null, i32 1, !{i64 2}}
!15 = !{!14}
