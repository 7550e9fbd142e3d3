#!/usr/bin/env bash
# Corpus tier: runs nvpass on every module of the real-IR corpus and has
# LLVM's and NVIDIA's tools judge the output.
#
#   scripts/corpus-tier.sh [CORPUS_DIR]
#
# CORPUS_DIR defaults to $NVPASS_CORPUS or ~/.cache/nvpass-corpus and is
# built with ../shared/tools/build-corpus.sh when missing. Per module:
#   roundtrip   nvpass-cli run --pipeline '' parses and prints it
#   roundtrip/j2  the same on two threads gives the same bytes (every
#               corpus module runs on one thread by default)
#   verify      opt-19 -passes=verify accepts the output
#   diff        llvm-diff-19 finds no difference from the input
#   fixpoint    printing the output again gives identical bytes
#   llc         llc-19 -march=nvptx64 -mcpu=sm_90 compiles the output
#   ptxas       ptxas -arch=sm_90 assembles that PTX
# and then, for every registered pass P (`nvpass-cli list-passes`) and for
# the pipelines in $here/scripts/corpus-pipelines.txt:
#   P           nvpass-cli run --pipeline P succeeds
#   P/verify    opt-19 -passes=verify accepts the output
#   P/idem      running P again on its own output changes nothing
#   P/j2        P on two threads gives the same bytes
#   P/remarks   its remark YAML, if any, converts with llvm-remarkutil-19
#   P/llc, P/ptxas  as above, where the unmodified input compiles
# and last, $NVPASS_DRAWN (default 80) pipelines of 2 to 5 registered
# passes in an order drawn from a fixed seed ($NVPASS_DRAWN_SEED, default
# 4821), each on one module (taken in turn), named drawn/P: the run,
# verify, j2, llc and ptxas as above (not idem: a pipeline of several
# passes need not be idempotent).
# Prints one line per check and a closing "N passed, N failed" line; exits
# non-zero when anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-${NVPASS_CORPUS:-$HOME/.cache/nvpass-corpus}}
shared=${NVPASS_SHARED:-$here/../shared}
if [ ! -f "$corpus/MANIFEST" ] || ! command -v opt-19 >/dev/null || [ ! -x "$corpus/bin/ptxas" ]; then
  bash "$shared/tools/build-corpus.sh" "$corpus" >&2 || { echo "corpus: build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
cli=${NVPASS_CLI:-$here/target/release/nvpass-cli}
[ -x "$cli" ] || cargo build --release -q -p nvpass-cli --manifest-path "$here/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # name module command...
  local name=$1 mod=$2; shift 2
  if "$@" >"$work/log" 2>&1; then
    pass=$((pass + 1)); echo "PASS $name $mod"
  else
    fail=$((fail + 1)); echo "FAIL $name $mod"; head -n 20 "$work/log" | sed 's/^/    /'
  fi
}
pipelines=()
while read -r name _; do pipelines+=("$name"); done < <("$cli" list-passes | tail -n +2)
passes=("${pipelines[@]}")
if [ -f "$here/scripts/corpus-pipelines.txt" ]; then
  while read -r p; do [ -n "$p" ] && [ "${p#\#}" = "$p" ] && pipelines+=("$p"); done < "$here/scripts/corpus-pipelines.txt"
fi
codegen_ok=()
for ll in "$corpus"/ll/*.ll; do
  mod=$(basename "$ll" .ll)
  out="$work/$mod.out.ll"
  check roundtrip "$mod" "$cli" run --pipeline '' "$ll" -o "$out"
  [ -f "$out" ] || continue
  check roundtrip/j2 "$mod" bash -c '"$1" run -j 2 --pipeline "" "$2" -o "$3" && cmp "$3" "$4"' _ "$cli" "$ll" "$work/$mod.j2.ll" "$out"
  check verify "$mod" opt-19 -passes=verify -disable-output "$out"
  check diff "$mod" llvm-diff-19 "$ll" "$out"
  check fixpoint "$mod" bash -c '"$1" run --pipeline "" "$2" -o "$3" && cmp "$2" "$3"' _ "$cli" "$out" "$work/$mod.again.ll"
  # The code generators judge only modules whose unmodified input LLVM and
  # ptxas accept (CUDA 12.9's libdevice calls NVVM intrinsics llc-19 does
  # not know, so its PTX is rejected before nvpass is involved).
  if llc-19 -march=nvptx64 -mcpu=sm_90 "$ll" -o "$work/$mod.ref.ptx" 2>/dev/null &&
     "$corpus/bin/ptxas" -arch=sm_90 -c "$work/$mod.ref.ptx" -o /dev/null 2>/dev/null; then
    check llc "$mod" llc-19 -march=nvptx64 -mcpu=sm_90 "$out" -o "$work/$mod.ptx"
    check ptxas "$mod" "$corpus/bin/ptxas" -arch=sm_90 -c "$work/$mod.ptx" -o "$work/$mod.cubin"
    codegen=1
    codegen_ok+=("$mod")
  else
    codegen=0
  fi
  for p in "${pipelines[@]}"; do
    po="$work/$mod.p.ll"
    rm -f "$po"
    rm -f "$work/$mod.r.yaml"
    check "$p" "$mod" "$cli" run --pipeline "$p" "$ll" -o "$po" --pass-remarks-output "$work/$mod.r.yaml"
    [ -f "$po" ] || continue
    if [ -s "$work/$mod.r.yaml" ]; then
      check "$p/remarks" "$mod" llvm-remarkutil-19 yaml2bitstream "$work/$mod.r.yaml" -o "$work/$mod.r.bitstream"
    fi
    check "$p/verify" "$mod" opt-19 -passes=verify -disable-output "$po"
    check "$p/idem" "$mod" bash -c '"$1" run --pipeline "$2" "$3" -o "$4" && cmp "$3" "$4"' _ "$cli" "$p" "$po" "$work/$mod.p2.ll"
    check "$p/j2" "$mod" bash -c '"$1" run -j 2 --pipeline "$2" "$3" -o "$4" && cmp "$4" "$5"' _ "$cli" "$p" "$ll" "$work/$mod.pj2.ll" "$po"
    if [ $codegen = 1 ]; then
      check "$p/llc" "$mod" llc-19 -march=nvptx64 -mcpu=sm_90 "$po" -o "$work/$mod.p.ptx"
      check "$p/ptxas" "$mod" "$corpus/bin/ptxas" -arch=sm_90 -c "$work/$mod.p.ptx" -o "$work/$mod.p.cubin"
    fi
  done
done
# Passes in orders no fixed pipeline has: drawn from bash's generator
# seeded with a constant, so every run draws the same ones.
RANDOM=${NVPASS_DRAWN_SEED:-4821}
mods=("$corpus"/ll/*.ll)
for ((d = 0; d < ${NVPASS_DRAWN:-80}; d++)); do
  n=$((2 + RANDOM % 4)) p=
  for ((k = 0; k < n; k++)); do p+=${p:+,}${passes[RANDOM % ${#passes[@]}]}; done
  ll=${mods[d % ${#mods[@]}]}
  mod=$(basename "$ll" .ll)
  po="$work/drawn.ll"
  rm -f "$po"
  check "drawn/$p" "$mod" "$cli" run --pipeline "$p" "$ll" -o "$po"
  [ -f "$po" ] || continue
  check "drawn/$p/verify" "$mod" opt-19 -passes=verify -disable-output "$po"
  check "drawn/$p/j2" "$mod" bash -c '"$1" run -j 2 --pipeline "$2" "$3" -o "$4" && cmp "$4" "$5"' _ "$cli" "$p" "$ll" "$work/drawn.j2.ll" "$po"
  if [[ " ${codegen_ok[*]} " == *" $mod "* ]]; then
    check "drawn/$p/llc" "$mod" llc-19 -march=nvptx64 -mcpu=sm_90 "$po" -o "$work/drawn.ptx"
    check "drawn/$p/ptxas" "$mod" "$corpus/bin/ptxas" -arch=sm_90 -c "$work/drawn.ptx" -o "$work/drawn.cubin"
  fi
done
echo "corpus: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
