#!/usr/bin/env bash
# Generic-access tier: counts, in PTX from `llc-19 -O3 -mcpu=sm_90`, the
# generic loads/stores (ld/st/atom/red without a state space) and the cvta
# instructions of every front-end module (*.fe.ll) of the corpus, for
#
#   base        the input as is
#   spec        after nvpass ipmsp,memspace-opt
#   split       after nvpass ipmsp<split-conflicts>,memspace-opt
#   O2          opt-19 -O2 alone
#   spec+O2     nvpass ipmsp,memspace-opt, then opt-19 -O2
#   split+O2    nvpass ipmsp<split-conflicts>,memspace-opt, then opt-19 -O2
#   spec+inl    nvpass ipmsp,force-inline,memspace-opt (the clones ipmsp
#               makes are alwaysinline: this is where they end up)
#   split+inl   nvpass ipmsp<split-conflicts>,force-inline,memspace-opt
#   bv+spec     nvpass byval-ref,ipmsp,memspace-opt (byval-ref passes
#               read-only byval aggregates of local objects by reference,
#               so llc makes no generic copies of them)
#   bv+split    nvpass byval-ref,ipmsp<split-conflicts>,memspace-opt
#
# The byval copies llc-19 emits at call sites (LowerCall loads the caller's
# copy of a byval argument with no address space, e.g. `ld.u8 [%SP+0]`)
# are generic in every variant that keeps the call; the "byval" column
# counts them (generic accesses addressed off %SP).
#
#   scripts/generic-access-count.sh [CORPUS_DIR]
#
# Each variant is counted twice: as is ("all"), and whole-program ("wp":
# `opt-19 -passes=internalize,globaldce` keeping only the kernels, as a
# non-rdc CUDA build does), because the original externally visible
# helpers stay behind, generic, after specialization.
#
# A check passes when an nvpass variant has no more generic accesses than
# its baseline (spec/split/spec+inl/split+inl/bv+spec/bv+split vs base,
# spec+O2/split+O2 vs O2) and every tool succeeds; the PTX of bv+spec and
# bv+split must also assemble with ptxas -arch=sm_90 (one check each). Prints a table, one PASS/FAIL line per check and a closing
# "N passed, N failed" line; exits non-zero when anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-${NVPASS_CORPUS:-$HOME/.cache/nvpass-corpus}}
cli=${NVPASS_CLI:-$here/target/release/nvpass-cli}
ptxas=${PTXAS:-$corpus/bin/ptxas}
[ -x "$cli" ] || cargo build --release -q -p nvpass-cli --manifest-path "$here/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
# generic accesses: ld/st/atom/red whose next dot-word is not a state space
count_generic() {
  grep -E '^\s*(@%p[0-9]+ )?(ld|st|atom|red)\.' "$1" |
    grep -vcE '^\s*(@%p[0-9]+ )?(ld|st|atom|red)\.(global|shared|const|local|param|tex|shared::cta|shared::cluster)'
}
count_byval() {
  grep -E '^\s*(@%p[0-9]+ )?(ld|st|atom|red)\.' "$1" |
    grep -vE '^\s*(@%p[0-9]+ )?(ld|st|atom|red)\.(global|shared|const|local|param|tex|shared::cta|shared::cluster)' |
    grep -c '\[%SP'
}
count_cvta() { grep -cE '^\s*(@%p[0-9]+ )?cvta\.' "$1"; }
ptx() { # in.ll out.ptx
  llc-19 -O3 -mcpu=sm_90 "$1" -o "$2" 2>"$work/llc.log"
}
declare -A gen cv wgen wcv bv tot
printf '%-22s %-9s %8s %6s %8s %6s %6s\n' module variant generic cvta wp-gen wp-cvta byval
for ll in "$corpus"/ll/*.fe.ll; do
  mod=$(basename "$ll" .ll)
  ok=1
  kernels=$(grep -oE '^!.*= !\{ptr @[^,]+, !"kernel", i32 1\}' "$ll" | sed -E 's/.*ptr @([^,]+),.*/\1/' | tr -d '"' | paste -sd, -)
  cp "$ll" "$work/$mod.base.ll"
  "$cli" run --pipeline 'ipmsp,memspace-opt' "$ll" -o "$work/$mod.spec.ll" 2>/dev/null || ok=0
  "$cli" run --pipeline 'ipmsp<split-conflicts>,memspace-opt' "$ll" -o "$work/$mod.split.ll" 2>/dev/null || ok=0
  "$cli" run --pipeline 'ipmsp,force-inline,memspace-opt' "$ll" -o "$work/$mod.spec+inl.ll" 2>/dev/null || ok=0
  "$cli" run --pipeline 'ipmsp<split-conflicts>,force-inline,memspace-opt' "$ll" -o "$work/$mod.split+inl.ll" 2>/dev/null || ok=0
  "$cli" run --pipeline 'byval-ref,ipmsp,memspace-opt' "$ll" -o "$work/$mod.bv+spec.ll" 2>/dev/null || ok=0
  "$cli" run --pipeline 'byval-ref,ipmsp<split-conflicts>,memspace-opt' "$ll" -o "$work/$mod.bv+split.ll" 2>/dev/null || ok=0
  opt-19 -O2 -S "$ll" -o "$work/$mod.O2.ll" || ok=0
  for v in spec split; do
    opt-19 -O2 -S "$work/$mod.$v.ll" -o "$work/$mod.$v+O2.ll" || ok=0
  done
  for v in base spec split O2 spec+O2 split+O2 spec+inl split+inl bv+spec bv+split; do
    if [ -f "$work/$mod.$v.ll" ] && ptx "$work/$mod.$v.ll" "$work/$mod.$v.ptx"; then
      gen[$mod.$v]=$(count_generic "$work/$mod.$v.ptx")
      cv[$mod.$v]=$(count_cvta "$work/$mod.$v.ptx")
      bv[$mod.$v]=$(count_byval "$work/$mod.$v.ptx")
    else
      gen[$mod.$v]=NA cv[$mod.$v]=NA bv[$mod.$v]=NA ok=0
    fi
    wgen[$mod.$v]=NA wcv[$mod.$v]=NA
    if [ -f "$work/$mod.$v.ll" ] &&
       opt-19 -passes=internalize,globaldce -internalize-public-api-list="$kernels" -S "$work/$mod.$v.ll" -o "$work/$mod.$v.wp.ll" &&
       ptx "$work/$mod.$v.wp.ll" "$work/$mod.$v.wp.ptx"; then
      wgen[$mod.$v]=$(count_generic "$work/$mod.$v.wp.ptx")
      wcv[$mod.$v]=$(count_cvta "$work/$mod.$v.wp.ptx")
    fi
    printf '%-22s %-9s %8s %6s %8s %6s %6s\n' "$mod" "$v" "${gen[$mod.$v]}" "${cv[$mod.$v]}" "${wgen[$mod.$v]}" "${wcv[$mod.$v]}" "${bv[$mod.$v]}"
  done
  for v in bv+spec bv+split; do
    if [ -f "$work/$mod.$v.ptx" ] && "$ptxas" -c -arch=sm_90 "$work/$mod.$v.ptx" -o "$work/$mod.$v.cubin" 2>"$work/ptxas.log"; then
      pass=$((pass + 1)); echo "PASS ptxas $mod $v"
    else
      fail=$((fail + 1)); echo "FAIL ptxas $mod $v"
    fi
  done
  for pair in spec:base split:base spec+O2:O2 split+O2:O2 spec+inl:base split+inl:base bv+spec:base bv+split:base; do
    v=${pair%%:*} b=${pair##*:}
    if [ $ok = 1 ] && [ "${gen[$mod.$v]}" != NA ] && [ "${gen[$mod.$v]}" -le "${gen[$mod.$b]}" ] &&
       [ "${wgen[$mod.$v]}" != NA ] && [ "${wgen[$mod.$v]}" -le "${wgen[$mod.$b]}" ]; then
      pass=$((pass + 1)); echo "PASS generic $mod $v<=$b"
    else
      fail=$((fail + 1)); echo "FAIL generic $mod $v<=$b (${gen[$mod.$v]} vs ${gen[$mod.$b]}, wp ${wgen[$mod.$v]} vs ${wgen[$mod.$b]})"
    fi
  done
done
# Totals over all modules, and the share of the baseline's generic
# accesses each variant removes.
for v in base spec split O2 spec+O2 split+O2 spec+inl split+inl bv+spec bv+split; do
  t=0 c=0 b=0
  for k in "${!gen[@]}"; do
    case "$k" in *."$v") ;; *) continue ;; esac
    [ "${gen[$k]}" = NA ] && continue
    t=$((t + gen[$k])) c=$((c + cv[$k])) b=$((b + bv[$k]))
  done
  tot[$v]=$t
  printf 'total %-9s generic %5s cvta %4s byval %4s' "$v" "$t" "$c" "$b"
  [ "${tot[base]:-0}" -gt 0 ] && printf '  removed vs base %3s%%' $(( (tot[base] - t) * 100 / tot[base] ))
  echo
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
