; A module that needs nothing is left unchanged and reports nothing.
; RUN: nvpass-cli run --pipeline legalize-functions %s --pass-remarks=.* 2>&1 | FileCheck %s
; RUN: nvpass-cli run --pipeline LegalizeFunctions %s | FileCheck %s

; CHECK-NOT: remark
; CHECK: define internal void @helper() #0
; CHECK: define ptx_kernel void @k()
; CHECK: attributes #0 = { noinline optnone }
define internal void @helper() #0 {
  ret void
}
define ptx_kernel void @k() {
  call void @helper()
  ret void
}
attributes #0 = { noinline optnone }
