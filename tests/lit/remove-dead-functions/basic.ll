; Discardable (internal, private, linkonce, linkonce_odr,
; available_externally) definitions with no uses are deleted, to a fixpoint
; (a chain of dead helpers goes at once), including dead cycles.
; RUN: nvpass-cli run --pipeline remove-dead-functions %s --pass-remarks=remove-dead-functions -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s

; REMARK: remark: removed dead function 'dead_internal' (linkage internal) [-Rpass=remove-dead-functions]
; REMARK-NEXT: remark: removed dead function 'dead_private' (linkage private)
; REMARK-NEXT: remark: removed dead function 'dead_linkonce' (linkage linkonce)
; REMARK-NEXT: remark: removed dead function 'dead_odr' (linkage linkonce_odr)
; REMARK-NEXT: remark: removed dead function 'dead_ae' (linkage available_externally)
; REMARK-NEXT: remark: removed dead function 'chain1' (linkage internal)
; REMARK-NEXT: remark: removed dead function 'chain2' (linkage internal)
; REMARK-NEXT: remark: removed dead function 'cyc_a' (linkage internal)
; REMARK-NEXT: remark: removed dead function 'cyc_b' (linkage internal)
; REMARK-NEXT: remark: removed dead function 'self_rec' (linkage internal)
; REMARK-NOT: remark:

; CHECK-NOT: @dead_
; CHECK-NOT: @chain
; CHECK-NOT: @cyc_
; CHECK-NOT: @self_rec
; CHECK: define internal void @live_helper()
; CHECK: define void @ext()
; CHECK: define weak void @weak_fn()
; CHECK: declare void @decl()
; CHECK-NOT: @dead_
; CHECK-NOT: @chain
; CHECK-NOT: @cyc_

define internal void @dead_internal() {
  ret void
}
define private void @dead_private() {
  ret void
}
define linkonce void @dead_linkonce() {
  ret void
}
define linkonce_odr void @dead_odr() {
  ret void
}
define available_externally void @dead_ae() {
  ret void
}
define internal void @chain1() {
  call void @chain2()
  ret void
}
define internal void @chain2() {
  ret void
}
define internal void @cyc_a() {
  call void @cyc_b()
  ret void
}
define internal void @cyc_b() {
  call void @cyc_a()
  ret void
}
define internal void @self_rec() {
  call void @self_rec()
  ret void
}
define internal void @live_helper() {
  ret void
}
define void @ext() {
  call void @live_helper()
  ret void
}
define weak void @weak_fn() {
  ret void
}
declare void @decl()
