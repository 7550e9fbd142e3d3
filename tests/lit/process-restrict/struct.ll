; Spec 004 "Failure Modes", struct-field restrict: a restrict key on an
; aggregate parameter. By default the pass warns "function contains
; restrict keyword in struct" and does not propagate from it (the rest of
; the function is processed). With allow-restrict-in-struct each pointer
; field (by byte offset) of the byval struct is a root covering every load
; of that field.
; RUN: nvpass-cli run -j 1 --pipeline process-restrict %s 2>%t.err | FileCheck %s --check-prefix=DEFAULT
; RUN: FileCheck %s --check-prefix=WARN --input-file %t.err
; RUN: nvpass-cli run -j 1 --pipeline process-restrict --allow-restrict-in-struct %s --pass-remarks-missed=process-restrict 2>%t.err2 | FileCheck %s --check-prefix=ALLOW
; RUN: FileCheck %s --check-prefix=MISSED --input-file %t.err2
; The same on four threads (functions analyzed in parallel, applied and
; reported in module order).
; RUN: nvpass-cli run -j 4 --pipeline process-restrict %s 2>%t.err4 | FileCheck %s --check-prefix=DEFAULT
; RUN: FileCheck %s --check-prefix=WARN --input-file %t.err4
; RUN: nvpass-cli run -j 4 --pipeline process-restrict --allow-restrict-in-struct %s --pass-remarks-missed=process-restrict 2>%t.err42 | FileCheck %s --check-prefix=ALLOW
; RUN: FileCheck %s --check-prefix=MISSED --input-file %t.err42

%struct.S = type { ptr, i32, ptr }

; WARN: warning: function contains restrict keyword in struct (function 'fields', parameter '%s')
; WARN: warning: function contains restrict keyword in struct (function 'written', parameter '%s')
; WARN: warning: function contains restrict keyword in struct (function 'by_value', parameter '%s')

; DEFAULT-LABEL: define void @fields(
; DEFAULT: %v = load float, ptr %x, align 4{{$}}
; DEFAULT: store float %v, ptr %y, align 4{{$}}
; DEFAULT: store float %v, ptr %z, align 4, !alias.scope
; DEFAULT: store float %v, ptr %y2, align 4{{$}}

; ALLOW-LABEL: define void @fields(
; ALLOW: %v = load float, ptr %x, align 4, !alias.scope [[LX:![0-9]+]], !noalias [[NX:![0-9]+]]
; ALLOW: store float %v, ptr %y, align 4, !alias.scope [[LY:![0-9]+]], !noalias [[NY:![0-9]+]]
; ALLOW: store float %v, ptr %z, align 4, !alias.scope [[LZ:![0-9]+]], !noalias [[NZ:![0-9]+]]
; Both loads of field 2 are one pointer family.
; ALLOW: store float %v, ptr %y2, align 4, !alias.scope [[LY]], !noalias [[NY]]
define void @fields(ptr byval(%struct.S) align 8 "user_specified_restrict_scope"="1" %s, ptr noalias %z) {
  %x = load ptr, ptr %s, align 8
  %f2 = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 2
  %y = load ptr, ptr %f2, align 8
  %v = load float, ptr %x, align 4
  store float %v, ptr %y, align 4
  store float %v, ptr %z, align 4
  %f2b = getelementptr inbounds i8, ptr %s, i64 16
  %y2 = load ptr, ptr %f2b, align 8
  store float %v, ptr %y2, align 4
  ret void
}

; Written struct memory: a field may change between loads, nothing is derived.
; MISSED: remark: restrict in struct parameter '%s' not propagated: the struct memory is written or escapes [-Rpass-missed=process-restrict]
; ALLOW-LABEL: define void @written(
; ALLOW: store float 1.000000e+00, ptr %x, align 4{{$}}
define void @written(ptr byval(%struct.S) align 8 "user_specified_restrict_scope"="1" %s, ptr %p) {
  store ptr %p, ptr %s, align 8
  %x = load ptr, ptr %s, align 8
  store float 1.0, ptr %x, align 4
  ret void
}

; MISSED: remark: restrict in struct parameter '%s' not propagated: the struct is passed by value [-Rpass-missed=process-restrict]
define void @by_value(%struct.S "user_specified_restrict_scope"="1" %s) {
  ret void
}
