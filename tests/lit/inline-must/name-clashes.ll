; Inlined names get `.i`, then `.i1`, `.i2`, ... past every name the caller
; already holds, whether it came from the input or from an earlier inline.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

define internal i32 @callee(i32 %a) alwaysinline {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %x, 2
  br label %done

done:
  ret i32 %y
}

define i32 @caller(i32 %x.i) {
entry:
  %y.i = add i32 %x.i, 3
  %x.i1 = add i32 %y.i, 1
  %done.i05 = add i32 %x.i1, 0
  %r1 = call i32 @callee(i32 %done.i05)
  %r2 = call i32 @callee(i32 %r1)
  %s = add i32 %r1, %r2
  ret i32 %s
}

; The second call is inlined first (call sites are taken last to first).
; CHECK-LABEL: define i32 @caller(i32 %x.i)
; CHECK:       %y.i = add i32 %x.i, 3
; CHECK-NEXT:  %x.i1 = add i32 %y.i, 1
; CHECK-NEXT:  %done.i05 = add i32 %x.i1, 0
; CHECK-NEXT:  br label %entry.i1
; CHECK:       entry.i1:
; CHECK-NEXT:  %x.i3 = add i32 %done.i05, 1
; CHECK-NEXT:  %y.i2 = mul i32 %x.i3, 2
; CHECK-NEXT:  br label %done.i1
; CHECK:       done.i1:
; CHECK:       entry.i:
; CHECK-NEXT:  %x.i2 = add i32 %y.i2, 1
; CHECK-NEXT:  %y.i1 = mul i32 %x.i2, 2
; CHECK-NEXT:  br label %done.i
; CHECK:       done.i:
; CHECK:       %s = add i32 %y.i2, %y.i1
; CHECK-NOT:   @callee
