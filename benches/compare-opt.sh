#!/usr/bin/env bash
# Runs nvpass-cli and opt-19 alternately on the same inputs and prints, per
# input and workload, the median wall time and median CPU time (user+sys)
# in milliseconds, the opt/nvpass ratios of wall times (w_ratio:
# throughput, nvpass using its default threads) and of CPU times (ratio:
# total work), and the peak RSS of both.
#
#   benches/compare-opt.sh [-n RUNS] [FILE.ll...]
#
# Default inputs: libdevice and cub_kernels.fe from the corpus (when
# present) and a generated 50 MB module. Workloads:
#   io    nvpass-cli run --pipeline ''        vs  opt-19 -S
#   card  nvpass-cli run --pipeline CARD      vs  opt-19 -S -passes='always-inline,function(infer-address-spaces)'
# CARD is the card pipeline limited to the registered passes; the row is
# skipped when none is registered. CPU time is the fairer number on a
# loaded machine; wall time is printed too.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=5
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
cli=${NVPASS_CLI:-$here/target/release/nvpass-cli}
gen=$here/target/release/gen
meter=$here/target/release/measure
[ -x "$cli" ] && [ -x "$gen" ] && [ -x "$meter" ] || cargo build --release -q -p nvpass-cli -p nvpass-benches --manifest-path "$here/Cargo.toml"
command -v opt-19 >/dev/null || { echo "compare-opt: opt-19 not found" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  corpus=${NVPASS_CORPUS:-$HOME/.cache/nvpass-corpus}/ll
  for f in libdevice.ll cub_kernels.fe.ll; do
    [ -f "$corpus/$f" ] && inputs+=("$corpus/$f")
  done
  "$gen" --size-mb 50 --seed 1 >"$work/gen50m.ll"
  inputs+=("$work/gen50m.ll")
fi

card=""
registered=$("$cli" list-passes 2>/dev/null | awk '{print $1}')
for p in pretreat kernel-attr cdp force-inline; do
  if grep -qx -- "$p" <<<"$registered"; then card=${card:+$card,}$p; fi
done

# measure LABEL CMD...: appends "wall cpu rss_kb" to $work/LABEL, as the
# `measure` helper reports them for the command alone: the clock runs from
# just before the command is spawned to when wait4 returns it, and CPU time
# and peak RSS are the command's from wait4. Nothing of this script (its
# interpreter, a wrapper process) is counted.
measure() {
  local label=$1; shift
  "$meter" "$@" >>"$work/$label" 2>"$work/err" || { echo "compare-opt: failed: $*" >&2; cat "$work/err" >&2; exit 1; }
}

median() { # FILE COLUMN
  sort -g -k"$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print v[int((NR+1)/2)]}'
}

printf '%-18s %-5s %9s %9s %7s %9s %9s %7s %9s %9s %6s\n' input work nv_wallms opt_wallms w_ratio nv_cpums opt_cpums ratio nv_rssMB opt_rssMB rss%
for f in "${inputs[@]}"; do
  name=$(basename "$f" .ll)
  for w in io card; do
    if [ "$w" = io ]; then
      nv=("$cli" run --pipeline '' "$f" -o "$work/nv.ll")
      op=(opt-19 -S "$f" -o "$work/opt.ll")
    else
      [ -n "$card" ] || continue
      nv=("$cli" run --pipeline "$card" "$f" -o "$work/nv.ll")
      op=(opt-19 -S -passes='always-inline,function(infer-address-spaces)' "$f" -o "$work/opt.ll")
    fi
    rm -f "$work/nv" "$work/opt"
    for _ in $(seq "$runs"); do
      measure nv "${nv[@]}"
      measure opt "${op[@]}"
    done
    nw=$(median "$work/nv" 1); ow=$(median "$work/opt" 1)
    nc=$(median "$work/nv" 2); oc=$(median "$work/opt" 2)
    nr=$(median "$work/nv" 3); orr=$(median "$work/opt" 3)
    awk -v n="$name" -v w="$w" -v nw="$nw" -v ow="$ow" -v nc="$nc" -v oc="$oc" -v nr="$nr" -v or="$orr" 'BEGIN {
      r = (nc > 0) ? oc / nc : 0
      wr = (nw > 0) ? ow / nw : 0
      printf "%-18s %-5s %9.1f %9.1f %6.1fx %9.1f %9.1f %6.1fx %9.1f %9.1f %5.0f%%\n", n, w, 1000 * nw, 1000 * ow, wr, 1000 * nc, 1000 * oc, r, nr / 1024, or / 1024, 100 * nr / or }'
  done
done
[ -n "$card" ] && echo "card pipeline: $card" || echo "card pipeline: no card pass registered; only the io workload was measured"
