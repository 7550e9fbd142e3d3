; Spec 001 "Two-Budget System", read as caps on the current IR (so a
; second run makes the same decisions): a call is inlined when its cost fits
; in inline-budget minus the caller's size (its instructions, model A's
; unit) and in inline-total-budget minus the module's size. @big costs
; 100 + 1 - 2 * 2 = 97, @tiny 1 + 1 - 4 -> 0. @dev has 4 instructions: the
; first @big fits in 150 - 4 = 146; then @dev has 103 (a one-block callee's
; body takes the call's place, its `ret` dropped), @tiny fits in 47, and the
; second @big does not fit in the 48 left.
; RUN: nvpass-cli run --pipeline inline %s --inline-budget=150 --pass-remarks=inline --pass-remarks-missed=inline 2>%t.err | FileCheck %s --check-prefix=BUDGET
; RUN: FileCheck --input-file %t.err %s --check-prefix=BUDGET-REMARK
; Kernels get inline-adj-budget1.
; RUN: nvpass-cli run --pipeline inline %s --inline-budget=150 --inline-adj-budget1=1000 | FileCheck %s --check-prefix=ADJ
; The module-wide budget: the module has 110 instructions; @dev (visited
; first: callers bottom-up, then in module order) brings it to 207 (@big's
; 100 replace a call, @tiny's none replace another, and @tiny, left without
; callers, is erased), which leaves 93, less than @big costs, so @k inlines
; nothing.
; RUN: nvpass-cli run --pipeline inline %s --inline-total-budget=300 --pass-remarks-missed=inline 2>%t.tot | FileCheck %s --check-prefix=TOTAL
; RUN: FileCheck --input-file %t.tot %s --check-prefix=TOTAL-REMARK
; Default budget 20000: everything is inlined.
; RUN: nvpass-cli run --pipeline 'inline<model=nvidia>' %s | FileCheck %s --check-prefix=ALL

define linkonce_odr i32 @big(i32 %x) {
  %v0 = add i32 %x, 0
  %v1 = add i32 %x, 1
  %v2 = add i32 %x, 2
  %v3 = add i32 %x, 3
  %v4 = add i32 %x, 4
  %v5 = add i32 %x, 5
  %v6 = add i32 %x, 6
  %v7 = add i32 %x, 7
  %v8 = add i32 %x, 8
  %v9 = add i32 %x, 9
  %v10 = add i32 %x, 10
  %v11 = add i32 %x, 11
  %v12 = add i32 %x, 12
  %v13 = add i32 %x, 13
  %v14 = add i32 %x, 14
  %v15 = add i32 %x, 15
  %v16 = add i32 %x, 16
  %v17 = add i32 %x, 17
  %v18 = add i32 %x, 18
  %v19 = add i32 %x, 19
  %v20 = add i32 %x, 20
  %v21 = add i32 %x, 21
  %v22 = add i32 %x, 22
  %v23 = add i32 %x, 23
  %v24 = add i32 %x, 24
  %v25 = add i32 %x, 25
  %v26 = add i32 %x, 26
  %v27 = add i32 %x, 27
  %v28 = add i32 %x, 28
  %v29 = add i32 %x, 29
  %v30 = add i32 %x, 30
  %v31 = add i32 %x, 31
  %v32 = add i32 %x, 32
  %v33 = add i32 %x, 33
  %v34 = add i32 %x, 34
  %v35 = add i32 %x, 35
  %v36 = add i32 %x, 36
  %v37 = add i32 %x, 37
  %v38 = add i32 %x, 38
  %v39 = add i32 %x, 39
  %v40 = add i32 %x, 40
  %v41 = add i32 %x, 41
  %v42 = add i32 %x, 42
  %v43 = add i32 %x, 43
  %v44 = add i32 %x, 44
  %v45 = add i32 %x, 45
  %v46 = add i32 %x, 46
  %v47 = add i32 %x, 47
  %v48 = add i32 %x, 48
  %v49 = add i32 %x, 49
  %v50 = add i32 %x, 50
  %v51 = add i32 %x, 51
  %v52 = add i32 %x, 52
  %v53 = add i32 %x, 53
  %v54 = add i32 %x, 54
  %v55 = add i32 %x, 55
  %v56 = add i32 %x, 56
  %v57 = add i32 %x, 57
  %v58 = add i32 %x, 58
  %v59 = add i32 %x, 59
  %v60 = add i32 %x, 60
  %v61 = add i32 %x, 61
  %v62 = add i32 %x, 62
  %v63 = add i32 %x, 63
  %v64 = add i32 %x, 64
  %v65 = add i32 %x, 65
  %v66 = add i32 %x, 66
  %v67 = add i32 %x, 67
  %v68 = add i32 %x, 68
  %v69 = add i32 %x, 69
  %v70 = add i32 %x, 70
  %v71 = add i32 %x, 71
  %v72 = add i32 %x, 72
  %v73 = add i32 %x, 73
  %v74 = add i32 %x, 74
  %v75 = add i32 %x, 75
  %v76 = add i32 %x, 76
  %v77 = add i32 %x, 77
  %v78 = add i32 %x, 78
  %v79 = add i32 %x, 79
  %v80 = add i32 %x, 80
  %v81 = add i32 %x, 81
  %v82 = add i32 %x, 82
  %v83 = add i32 %x, 83
  %v84 = add i32 %x, 84
  %v85 = add i32 %x, 85
  %v86 = add i32 %x, 86
  %v87 = add i32 %x, 87
  %v88 = add i32 %x, 88
  %v89 = add i32 %x, 89
  %v90 = add i32 %x, 90
  %v91 = add i32 %x, 91
  %v92 = add i32 %x, 92
  %v93 = add i32 %x, 93
  %v94 = add i32 %x, 94
  %v95 = add i32 %x, 95
  %v96 = add i32 %x, 96
  %v97 = add i32 %x, 97
  %v98 = add i32 %x, 98
  %v99 = add i32 %x, 99
  ret i32 %x
}
define linkonce_odr i32 @tiny(i32 %x) {
  ret i32 %x
}

; BUDGET-LABEL: define i32 @dev(
; BUDGET-NOT: call i32 @big
; BUDGET: call i32 @big(
; BUDGET-NOT: call i32 @big
; BUDGET-NOT: call i32 @tiny
; BUDGET: ret i32
; TOTAL-LABEL: define i32 @dev(
; TOTAL-COUNT-1: call i32 @big(
; TOTAL-NOT: call i32 @big(
; ALL-LABEL: define i32 @dev(
; ALL-NOT: call
; ALL: ret i32
define i32 @dev(i32 %x) {
  %a = call i32 @big(i32 %x)
  %b = call i32 @big(i32 %a)
  %c = call i32 @tiny(i32 %b)
  ret i32 %c
}

; ADJ-LABEL: define ptx_kernel void @k(
; ADJ-NOT: call
; ADJ: ret void
; TOTAL-LABEL: define ptx_kernel void @k(
; TOTAL-COUNT-2: call i32 @big(
define ptx_kernel void @k(i32 %x, ptr %out) {
  %a = call i32 @big(i32 %x)
  %b = call i32 @big(i32 %a)
  store i32 %b, ptr %out
  ret void
}

; BUDGET-REMARK-DAG: remark: 'big' inlined into 'dev' with (cost=97, threshold=146): cost within threshold and budget
; BUDGET-REMARK-DAG: remark: 'big' not inlined into 'dev' because the inline budget is exhausted (cost=97, budget=48)
; BUDGET-REMARK-DAG: remark: 'tiny' inlined into 'dev' with (cost=0, threshold=47)
; TOTAL-REMARK: remark: 'big' not inlined into 'dev' because the inline budget is exhausted (cost=97, budget=93)
; TOTAL-REMARK: remark: 'big' not inlined into 'k' because the inline budget is exhausted (cost=97, budget=93)
