; Exercises the runner and FileCheck without nvpass-cli: this file is its
; own FileCheck input.
; RUN: FileCheck --input-file %s %s
; RUN: FileCheck %s < %s
; RUN: FileCheck --input-file=%s %s --check-prefix=LABELS
; RUN: not FileCheck --input-file %s %s --check-prefix=BAD 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR
; RUN: not FileCheck --input-file %s %s --check-prefix=BAD 2> %t \
; RUN:   && FileCheck --input-file %t %s --check-prefix=ERR

; Anchored with {{^}} so that these lines do not match themselves.
; CHECK: {{^}}define void @g(
; CHECK-NEXT: {{^}}entry:
; CHECK-NEXT: {{^}}  ret void
; LABELS-LABEL: {{^}}define void @g(
; LABELS-NOT: call
; LABELS: ret

; BAD: this string {{appears}} nowhere
; ERR: error: {{BA}}D: expected string not found in input
; ERR-NEXT: ; BAD: this string

define void @g() {
entry:
  ret void
}
