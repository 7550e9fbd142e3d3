; Rule 1: a called available_externally definition becomes linkonce_odr
; (llc-19 emits no body or prototype for it and ptxas then rejects the
; call); an uncalled one is left alone.
; RUN: nvpass-cli run --pipeline legalize-functions %s --pass-remarks=legalize-functions -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s
; Idempotent.
; RUN: nvpass-cli run --pipeline legalize-functions,legalize-functions %s | FileCheck %s

; REMARK: remark: ae_called: called available_externally definition made linkonce_odr [-Rpass=legalize-functions]
; REMARK-NOT: remark:

; CHECK: define linkonce_odr i32 @ae_called(i32 %x)
define available_externally i32 @ae_called(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
; CHECK: define available_externally i32 @ae_unused(i32 %x)
define available_externally i32 @ae_unused(i32 %x) {
  ret i32 %x
}
define ptx_kernel void @k(ptr %p) {
  %v = call i32 @ae_called(i32 3)
  store i32 %v, ptr %p
  ret void
}
