; Named metadata right after a declaration is not an attachment of it, while
; `declare ... !dbg` attachments still are.
; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s

; CHECK: declare void @g()
; CHECK: declare !dbg !1 void @h()
; CHECK: !nvvm.annotations = !{!0}
; CHECK: !0 = !{ptr @g, !"kernel", i32 1}
declare void @g()
!nvvm.annotations = !{!0}
declare void @h() !dbg !1
!0 = !{ptr @g, !"kernel", i32 1}
!1 = !{}
