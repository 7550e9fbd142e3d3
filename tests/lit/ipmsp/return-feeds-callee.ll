; A resolved return space makes the caller's later calls classifiable: the
; callees that receive the result (directly, through a GEP, or through a
; stack slot it was spilled to) are visited again in the same run, also
; when the worklist popped them before the call was retargeted. One run
; reaches what a second would, so a second run changes nothing.
; RUN: nvpass-cli run --pipeline ipmsp --dump-ip-msp %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=DUMP
; RUN: FileCheck %s < %t.ll
; RUN: nvpass-cli run --pipeline ipmsp %t.ll | FileCheck %s

; @sink and @sink.slot come before @id in module order, so the worklist pops
; them while @id's result is still an unclassifiable call result.
; DUMP: note: Initial work list size : 3
; DUMP: note: id : changed in argument memory space (1 arguments)
; DUMP: note: id : return memory space is resolved : 1
; DUMP: note: 2 callees are affected
; DUMP: note: sink : changed in argument memory space (1 arguments)
; DUMP: note: sink.slot : changed in argument memory space (1 arguments)

; CHECK: define internal void @sink(ptr addrspace(1) %q) "nvvm.as"="1"
define internal void @sink(ptr %q) {
  store i32 0, ptr %q, align 4
  ret void
}

; CHECK: define internal void @sink.slot(ptr addrspace(1) %q) "nvvm.as"="1"
define internal void @sink.slot(ptr %q) {
  store i32 1, ptr %q, align 4
  ret void
}

; CHECK: define internal ptr addrspace(1) @id(ptr addrspace(1) %p) "nvvm.as"="1"
define internal ptr @id(ptr %p) {
  ret ptr %p
}

; CHECK-LABEL: define ptx_kernel void @k(ptr %a)
; CHECK: %[[R:[0-9]+]] = call ptr addrspace(1) @id(ptr addrspace(1)
; CHECK: call void @sink(ptr addrspace(1) %[[R]])
; CHECK: call void @sink.slot(ptr addrspace(1)
define ptx_kernel void @k(ptr %a) {
  %s = alloca ptr, align 8
  %r = call ptr @id(ptr %a)
  call void @sink(ptr %r)
  store ptr %r, ptr %s, align 8
  %l = load ptr, ptr %s, align 8
  %e = getelementptr i8, ptr %l, i64 4
  call void @sink.slot(ptr %e)
  ret void
}
