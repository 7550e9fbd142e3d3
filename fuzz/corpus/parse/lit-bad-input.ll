; Malformed IR is rejected: a diagnostic on stderr and a non-zero exit status.
; RUN: not nvpass-cli run --pipeline '' %s 2>&1 | FileCheck %s

; CHECK: error: expected
define void @f( {
  ret void
}
