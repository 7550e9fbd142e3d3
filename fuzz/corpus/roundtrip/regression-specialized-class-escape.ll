source_filename = "mÿ–.c"

define void @f(i32 %x, ptr %p) !dbg !5 {
entry:
    #dbg_label(!12, !11)
  ret void, !dbg !11
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!named.empty = !{}
!escaped\5Cname = !{!3}

!0 = distinct !DICompileUnit(language: DameTableKind: None)
!1 = !DIFile(filename: "m.c", directory: "/Œ”p")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name:dNodse: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: scope: !5, file: !1, line: 1, type: !8)
!11 = !DILocation(line: 2, column: 7, cepo !s:5)
!12 = !DI\abel(scope: !5, name: "L", file: !0, line: 3)
!13 = distinct !DIAssignID()
!14 = !{!15, !"s", null, i32 1, !{i64 2}}
!15 = !{!14}
