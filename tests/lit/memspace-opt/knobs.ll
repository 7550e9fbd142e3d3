; memspace-opt-enable=0 leaves the module alone; conservative mode keeps
; unknown pointers generic without the BOTTOM warning.
; RUN: nvpass-cli run --pipeline memspace-opt --memspace-opt-enable=0 %s | FileCheck %s --check-prefix=OFF
; RUN: nvpass-cli run --pipeline memspace-opt --memspace-opt-conservative=1 %s 2>&1 | FileCheck %s --check-prefix=CONS
; OFF: %a = getelementptr i32, ptr %g, i64 1
; CONS-NOT: Cannot tell
; CONS: load i32, ptr %p
define ptx_kernel void @k(ptr %g) {
  %a = getelementptr i32, ptr %g, i64 1
  store i32 0, ptr %a
  ret void
}
define i32 @h(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
