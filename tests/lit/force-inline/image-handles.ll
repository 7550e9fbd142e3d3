; Spec 000 "Image handle": every form an image/sampler handle takes in
; opaque-pointer IR forces inlining (see the `decision` module docs).
; RUN: nvpass-cli run --pipeline 'force-inline<mark-only>' %s --pass-remarks-analysis=force-inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK

%struct.wroimage = type opaque
%opencl.sampler = type opaque
%struct.notanimage = type { i32 }

@tex = addrspace(1) global i64 0
@plain = addrspace(1) global i64 0

; 1. Target extension types.
; CHECK-LABEL: define void @ext_image(
; CHECK-SAME: ) alwaysinline {
define void @ext_image(target("nvvm.image") %h) {
  ret void
}
; CHECK-LABEL: define void @ext_spirv_sampler(
; CHECK-SAME: ) alwaysinline {
define void @ext_spirv_sampler(target("spirv.Sampler") %h) {
  ret void
}

; 2. Named opaque struct types, reached through a type attribute.
; CHECK-LABEL: define void @byval_wroimage(
; CHECK-SAME: ) alwaysinline {
define void @byval_wroimage(ptr byval(%struct.wroimage) %h) {
  ret void
}
; CHECK-LABEL: define void @elementtype_sampler(
; CHECK-SAME: ) alwaysinline {
define void @elementtype_sampler(ptr elementtype(%opencl.sampler) %h) {
  ret void
}

; 3. !nvvm.annotations naming parameter 1 as "rdoimage".
; CHECK-LABEL: define void @annotated_param(
; CHECK-SAME: ) alwaysinline {
define void @annotated_param(i32 %x, i64 %h) {
  ret void
}

; 4. A call passes a global annotated "texture".
; CHECK-LABEL: define void @gets_texture(
; CHECK-SAME: ) alwaysinline {
define void @gets_texture(ptr addrspace(1) %t) {
  ret void
}

; Look-alikes: a plain i64 (bindless texture object), a struct with another
; name, a global without annotation.
; CHECK-LABEL: define void @bindless(
; CHECK-SAME: ) {
define void @bindless(i64 %texobj, ptr byval(%struct.notanimage) %s) {
  ret void
}
; CHECK-LABEL: define void @gets_plain(
; CHECK-SAME: ) {
define void @gets_plain(ptr addrspace(1) %t) {
  ret void
}

define void @user() {
  call void @gets_texture(ptr addrspace(1) @tex)
  call void @gets_plain(ptr addrspace(1) @plain)
  ret void
}

; REMARK-DAG: remark: ext_image marked alwaysinline: image handle
; REMARK-DAG: remark: annotated_param marked alwaysinline: image handle
; REMARK-DAG: remark: gets_texture marked alwaysinline: image handle
; REMARK-NOT: bindless

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @annotated_param, !"rdoimage", i32 1}
!1 = !{ptr addrspace(1) @tex, !"texture", i32 1}
