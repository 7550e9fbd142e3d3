; An atomic on a pointer inferred local is an error; no output is written.
; RUN: not nvpass-cli run --pipeline memspace-opt %s 2>&1 | FileCheck %s
; CHECK: error: Cannot do atomic on local memory
define void @f() {
  %l = alloca i32
  %old = atomicrmw add ptr %l, i32 1 seq_cst
  ret void
}
