; Spec 000 "Force-Inline Decision", large return: the return type's
; allocation size must EXCEED 144 bytes.
; RUN: nvpass-cli run --pipeline 'force-inline<mark-only>' %s | FileCheck %s

%struct.R144 = type { [18 x double] }
%struct.R145 = type { [145 x i8] }
%struct.R148 = type { [37 x float] }

; CHECK-LABEL: define %struct.R144 @ret_144(
; CHECK-NOT: alwaysinline
; CHECK: ret
define %struct.R144 @ret_144() {
  ret %struct.R144 zeroinitializer
}

; CHECK-LABEL: define %struct.R145 @ret_145(
; CHECK-SAME: ) alwaysinline {
define %struct.R145 @ret_145() {
  ret %struct.R145 zeroinitializer
}

; CHECK-LABEL: define %struct.R148 @ret_148(
; CHECK-SAME: ) alwaysinline {
define %struct.R148 @ret_148() {
  ret %struct.R148 zeroinitializer
}

; void returns never count.
; CHECK-LABEL: define void @ret_void(
; CHECK-NOT: #
define void @ret_void() {
  ret void
}

