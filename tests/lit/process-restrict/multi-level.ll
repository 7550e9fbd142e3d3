; Spec 004 "Tunables" and "Algorithm": apply-multi-level-restrict gates the
; isPointerLoad edge. By default a pointer loaded through a restricted
; pointer is not derived (the load itself is an access and is stamped);
; with the knob it inherits the scopes of the pointer it was loaded through.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s --check-prefix=OFF
; RUN: nvpass-cli run --pipeline process-restrict --apply-multi-level-restrict=1 %s | FileCheck %s --check-prefix=ON

; OFF-LABEL: define void @pp(
; OFF: %inner = load ptr, ptr %pp, align 8, !alias.scope [[L:![0-9]+]], !noalias
; OFF-NEXT: %e = getelementptr inbounds i32, ptr %inner, i64 1
; OFF-NEXT: store i32 0, ptr %e, align 4{{$}}
; ON-LABEL: define void @pp(
; ON: %inner = load ptr, ptr %pp, align 8, !alias.scope [[L:![0-9]+]], !noalias [[N:![0-9]+]]
; ON-NEXT: %e = getelementptr inbounds i32, ptr %inner, i64 1
; ON-NEXT: store i32 0, ptr %e, align 4, !alias.scope [[L]], !noalias [[N]]
; ON-NEXT: %w = load i32, ptr %q, align 4, !alias.scope [[N]], !noalias [[L]]
define void @pp(ptr "user_specified_restrict_scope"="1" %pp, ptr "user_specified_restrict_scope"="1" %q) {
  %inner = load ptr, ptr %pp, align 8
  %e = getelementptr inbounds i32, ptr %inner, i64 1
  store i32 0, ptr %e, align 4
  %w = load i32, ptr %q, align 4
  ret void
}
