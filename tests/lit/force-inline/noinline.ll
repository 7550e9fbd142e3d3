; Spec 000 priority: kernel and image handle override noinline; large
; parameters and large returns do not. optnone functions are never marked.
; RUN: nvpass-cli run --pipeline 'force-inline<mark-only>' %s --pass-remarks-missed=force-inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK

%struct.R = type { [40 x float] }
%struct.rdoimage = type opaque

; Large return but noinline: left alone.
; CHECK-LABEL: define %struct.R @big_ret_noinline(
; CHECK-SAME: #[[NOINL:[0-9]+]]
define %struct.R @big_ret_noinline() #0 {
  ret %struct.R zeroinitializer
}

; Large params but noinline: left alone.
; CHECK-LABEL: define void @big_params_noinline(
; CHECK-SAME: #[[NOINL]]
define void @big_params_noinline(ptr byval([100 x i32]) %p) #0 {
  ret void
}

; Image handle with noinline: forced, noinline removed (the verifier
; rejects noinline next to alwaysinline).
; CHECK-LABEL: define void @image_noinline(
; CHECK-SAME: ) alwaysinline {
define void @image_noinline(ptr byval(%struct.rdoimage) %img) #0 {
  ret void
}

; Kernel with noinline: forced.
; CHECK-LABEL: define ptx_kernel void @kernel_noinline(
; CHECK-SAME: ) alwaysinline {
define ptx_kernel void @kernel_noinline() #0 {
  ret void
}

; optnone + noinline kernel: not marked, with a missed remark.
; CHECK-LABEL: define ptx_kernel void @kernel_optnone(
; CHECK-SAME: #[[OPTNONE:[0-9]+]]
define ptx_kernel void @kernel_optnone() #1 {
  ret void
}

; CHECK-DAG: attributes #[[NOINL]] = { noinline }
; CHECK-DAG: attributes #[[OPTNONE]] = { noinline optnone }
; REMARK: remark: kernel_optnone not marked alwaysinline (kernel): optnone function attribute

attributes #0 = { noinline }
attributes #1 = { noinline optnone }
