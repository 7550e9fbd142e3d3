; Rule 5: PTX cannot call an .entry; a direct call of a kernel is an error
; located at the call's !dbg. Passing the kernel's address (a CDP launch)
; is fine.
; RUN: not nvpass-cli run --pipeline legalize-functions %s 2>&1 | FileCheck %s

; CHECK: k.cu:7:3: error: kernel 'k' is called directly from 'caller'; PTX kernels can only be launched
; CHECK-NOT: error: kernel 'k' is called directly from 'launcher'
define void @k() "nvvm.kernel" {
  ret void
}
define void @caller() {
  call void @k(), !dbg !5
  ret void
}
define void @launcher() {
  %r = call i32 @cudaLaunchDevice(ptr @k, ptr null)
  ret void
}
declare i32 @cudaLaunchDevice(ptr, ptr)
; (a definition after the declarations: the nvpass-ir parser reads named
; metadata right after a declaration as an attachment)
define internal void @after_decls() {
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 5, unit: !0)
!5 = !DILocation(line: 7, column: 3, scope: !3)
