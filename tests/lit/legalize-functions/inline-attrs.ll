; Rule 2: noinline + alwaysinline (rejected by the LLVM verifier): drop
; alwaysinline. Rule 3: optnone without noinline (also rejected): add
; noinline. Other attributes are untouched.
; RUN: nvpass-cli run --pipeline legalize-functions %s --pass-remarks=legalize-functions -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s
; RUN: nvpass-cli run --pipeline legalize-functions,legalize-functions %s | FileCheck %s

; REMARK: remark: both: alwaysinline dropped (conflicts with noinline) [-Rpass=legalize-functions]
; REMARK-NEXT: remark: opt_none: noinline added (required by optnone)
; REMARK-NOT: remark:

; CHECK: define void @both() noinline nounwind {
; CHECK: define void @opt_none() noinline #1 {
; CHECK: define void @fine() #2 {
; CHECK: attributes #1 = { optnone }
; CHECK: attributes #2 = { alwaysinline "keep"="me" }
define void @both() #0 {
  ret void
}
define void @opt_none() #1 {
  ret void
}
define void @fine() #2 {
  ret void
}
attributes #0 = { noinline alwaysinline nounwind }
attributes #1 = { optnone }
attributes #2 = { alwaysinline "keep"="me" }
