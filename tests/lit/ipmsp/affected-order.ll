; The functions a specialization affects are re-enqueued in the order they
; are found (here the target's callees, in call order), so the worklist,
; and with it the transcript, is the same on every run.
; RUN: nvpass-cli run --pipeline ipmsp --dump-ip-msp %s -o %t.ll 2>&1 | FileCheck %s
; CHECK: note: Initial work list size : 5
; CHECK-NEXT: note: f : changed in argument memory space (1 arguments)
; CHECK-NEXT: note: 4 callees are affected
; CHECK-NEXT: note: g1 : changed in argument memory space (1 arguments)
; CHECK-NEXT: note: g2 : changed in argument memory space (1 arguments)
; CHECK-NEXT: note: g3 : changed in argument memory space (1 arguments)
; CHECK-NEXT: note: g4 : changed in argument memory space (1 arguments)
target triple = "nvptx64-nvidia-cuda"

define internal void @g3(ptr %p) {
  store float 3.0, ptr %p
  ret void
}

define internal void @g1(ptr %p) {
  store float 1.0, ptr %p
  ret void
}

define internal void @g4(ptr %p) {
  store float 4.0, ptr %p
  ret void
}

define internal void @g2(ptr %p) {
  store float 2.0, ptr %p
  ret void
}

define internal void @f(ptr %p) {
  call void @g1(ptr %p)
  call void @g2(ptr %p)
  call void @g3(ptr %p)
  call void @g4(ptr %p)
  ret void
}

define ptx_kernel void @k(ptr %p) {
  call void @f(ptr %p)
  ret void
}
