; Clang's form: clang writes noalias on __restrict__ parameters and no key.
; Those parameters become scopes too (scopes survive inlining, noalias
; parameters do not). No keys are invented for them; the scope ID in the
; name is "noalias". sret is noalias too and therefore a root as well.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @axpy(ptr noalias noundef %y, ptr noalias noundef %x, float %a) "nvvm.restrict_processed" {
; CHECK: %xv = load float, ptr %xp, align 4, !alias.scope [[LX:![0-9]+]], !noalias [[LY:![0-9]+]]
; CHECK: %yv = load float, ptr %yp, align 4, !alias.scope [[LY]], !noalias [[LX]]
; CHECK: store float %r, ptr %yp, align 4, !alias.scope [[LY]], !noalias [[LX]]
; CHECK-DAG: [[LY]] = !{[[SY:![0-9]+]]}
; CHECK-DAG: [[LX]] = !{[[SX:![0-9]+]]}
; CHECK-DAG: [[SY]] = distinct !{[[SY]], [[D:![0-9]+]], !"restrict.scope.noalias.y"}
; CHECK-DAG: [[SX]] = distinct !{[[SX]], [[D]], !"restrict.scope.noalias.x"}
; CHECK-DAG: [[D]] = distinct !{[[D]], !"restrict.domain.axpy"}
; CHECK-NOT: nvvm.restrict_scope

define void @axpy(ptr noalias noundef %y, ptr noalias noundef %x, float %a) {
entry:
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %xp = getelementptr inbounds float, ptr %x, i32 %i
  %xv = load float, ptr %xp, align 4
  %yp = getelementptr inbounds float, ptr %y, i32 %i
  %yv = load float, ptr %yp, align 4
  %m = fmul float %a, %xv
  %r = fadd float %m, %yv
  store float %r, ptr %yp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
