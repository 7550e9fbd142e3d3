$c1 = comdat any
$g7 = comdat any
$c2 = comdat nodeduplicate
$"quoted comdat" = comdat largest

@g1 = private unnamed_addr constant [3 x i8] c"ab\00", align 1
@g2 = internal addrspace(3) global i32 undef, align 4
@g3 = external global i32
@g4 = extern_weak global i32
@g5 = dso_local thread_local(initialexec) local_unnamed_addr global i32 0, section ".data", comdat($c1), align 8, !dbg !0
@g6 = hidden externally_initialized global i32 1, partition "p", code_model "small", no_sanitize_address
@g7 = weak_odr dllexport global i32 2, comdat #0
@g7x = linkonce_odr protected constant i32 3, comdat($c2)
@"quoted name" = common global i64 0
@0 = global i32 4
@1 = internal global ptr @0
@g8 = available_externally thread_local global i8 1
@g9 = appending global [1 x ptr] [ptr @f]
@gq = global i32 5, comdat($"quoted comdat")
@a1 = alias i32, ptr @g1
@a2 = internal alias i32, ptr getelementptr (i8, ptr @g2.flat, i64 4)
@g2.flat = global [2 x i32] zeroinitializer
@if1 = ifunc void (), ptr @resolver
@a3 = weak alias void (), ptr @f, partition "q"

define void @f() {
  ret void
}

define internal ptr @resolver() {
  ret ptr @f
}

module asm "foo"
module asm "bar \22baz\22"

attributes #0 = { "rodata-section"="x" }

!llvm.dbg.cu = !{!2}
!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "g5", scope: !2, file: !3, line: 1, type: !4, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !DIFile(filename: "g.c", directory: "/")
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
