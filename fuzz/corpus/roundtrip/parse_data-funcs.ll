$full = comdat any
%T = type { i64, i64 }

declare !dbg !0 void @d0()
declare dso_local ptx_kernel void @k(ptr byval(%T) align 8, ptr sret(%T) noalias, ptr nocapture readonly dereferenceable(16) %named, i32 signext, ...)
declare cc72 noundef range(i32 0, 10) i32 @dev(i32 zeroext, ptr elementtype(i32) captures(none)) #1
declare void @attrs(ptr inalloca(i8), ptr byref(i32), ptr preallocated(i64), ptr nofpclass(nan inf) dereferenceable_or_null(8), ptr initializes((0, 4)), ptr writeonly swiftself) memory(argmem: readwrite) uwtable(sync) allocsize(0, 1) vscale_range(1, 16) "k"="v" "flag"
declare cc 10 void @cc10()
declare coldcc void @cold()

define linkonce_odr hidden fastcc i32 @full(i32 %a) unnamed_addr addrspace(0) #0 section ".text.f" partition "part" comdat align 16 gc "statepoint-example" prefix i32 123 prologue i8 7 personality ptr @d0 !dbg !0 !prof !8 {
  ret i32 %a
}

define weak void @unnamed_args(i32, i32 %named, i32) {
entry:
  ret void
}

define void @unnamed_entry(i32) {
  %2 = add i32 %0, 1
  br label %3

3:
  ret void
}

define void @fwd_call() {
  call void @later(i32 1)
  ret void
}

define void @later(i32 %x) alignstack(16) noinline optnone nounwind {
  ret void
}

define void @unknown_attr() sometotallynewattr "x" {
  ret void
}

attributes #0 = { noinline nounwind "target-cpu"="sm_90" alignstack=16 }
attributes #1 = { convergent memory(none) }

!llvm.module.flags = !{!9}
!llvm.dbg.cu = !{!1}
!0 = distinct !DISubprogram(name: "d0", scope: !2, file: !2, type: !3, spFlags: 0)
!1 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "f.c", directory: "/")
!3 = !DISubroutineType(types: !4)
!4 = !{null}
!8 = !{!"function_entry_count", i64 10}
!9 = !{i32 2, !"Debug Info Version", i32 3}
