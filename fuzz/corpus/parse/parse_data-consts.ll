%S = type { i32, [2 x i8], <2 x float> }

@i = global i32 -5
@h = global i64 u0xFFFFFFFFFFFFFFFF
@b = global i1 true
@f = global float 1.5
@fh = global float 0x3FF8000000000000
@d = global double 0x400921FB54442D18
@dd = global double -2.5e-3
@hf = global half 0xH3C00
@hd = global half 1.0
@bf = global bfloat 0xR3F80
@x = global x86_fp80 0xK3FFF8000000000000000
@q = global fp128 0xL00000000000000003FFF000000000000
@pq = global ppc_fp128 0xM3FF00000000000000000000000000000
@n = global ptr null
@u = global i32 undef
@p = global i32 poison
@z = global [2 x i32] zeroinitializer
@str = global [4 x i8] c"ab\00\FF"
@agg = global %S { i32 1, [2 x i8] c"hi", <2 x float> <float 1.0, float 2.0> }
@lit = global { i8, { i16 } } { i8 1, { i16 } { i16 2 } }
@pk = global <{ i8, i32 }> <{ i8 1, i32 2 }>
@arr = global [2 x ptr] [ptr @z, ptr null]
@spl = global <4 x i32> splat (i32 7)
@big = global i256 123456789012345678901234567890123456789012345678901234567890
@bigh = global i256 u0x10000000000000000000000000000000000
@ce1 = global ptr getelementptr inbounds ([2 x i32], ptr @z, i64 0, i64 1)
@ce2 = global i64 ptrtoint (ptr @z to i64)
@ce3 = global ptr addrspace(1) addrspacecast (ptr @z to ptr addrspace(1))
@ce4 = global i64 add (i64 ptrtoint (ptr @z to i64), i64 8)
@ce5 = global ptr getelementptr inbounds inrange(-4, 4) ([2 x i32], ptr @z, i64 0, i64 1)
@ce6 = global i64 sub nuw (i64 ptrtoint (ptr @z to i64), i64 1)
@ce7 = global i32 extractelement (<2 x i32> <i32 1, i32 2>, i32 0)
@ce8 = global ptr getelementptr (i8, ptr @fwd, i64 4)
@ba = global ptr blockaddress(@fn, %bb)
@dle = global ptr dso_local_equivalent @decl
@nc = global ptr no_cfi @decl
@fwd = global i32 0

define void @fn() {
entry:
  br label %bb

bb:
  ret void
}

declare void @decl()
