#!/usr/bin/env bash
# Scaling series for issue #9: parse, print, verify and every registered pass
# on generated modules of 1x, 2x, 4x, 8x and 16x a base size. Prints the
# table of the `scale` benchmark binary (time and peak heap per stage, and
# both normalized by the size ratio: 1.00 = linear), then every row from 2x
# up whose time or memory grows by more than LIMIT times the size ratio.
#
#   scripts/scaling.sh [--base-mb N] [--steps K] [--limit X] [--strict] [--only a,b]
#                      [--chain N] [--fan-in N] [--scc N] [--block-calls N] [--cdp-block N] [--dead N] [--inline-chain N] [--cold] [--runs N] [--rounds N]
#
# Defaults: --base-mb 1 --steps 5 --limit 1.15 --chain 50 --fan-in 200
# --scc 8 (shape sizes at 1x; `--chain 625 --fan-in 6250 --scc 64` reaches
# a 10,000-deep chain, 100,000 call sites and a 1,024-function cycle at
# 16x). --only keeps the passes whose name contains one of the words
# (`--only none`: parse, print, verify only). With --strict the script
# exits 1 when a row is over the limit. Times below 5 ms are not judged
# (timer and scheduler noise dominate them). The chain, fan-in and SCC shapes
# grow with the size, so the call-graph passes are exercised at every step.
# --block-calls N adds one block calling two helpers N times each at 1x.
# --cdp-block N adds one block with N CDP launches of each form (V2 and
# legacy) at 1x.
# --dead N adds N uncalled internal functions at 1x, each named by a
# metadata node, for remove-dead-functions to erase.
# --inline-chain N adds a chain of N internal helpers at 1x that the LLVM
# and CGSCC inliner models inline bottom-up until their budget stops them.
# The names copied grow by `.i` per level inlined, as LLVM's do, so the
# output of those two models grows faster than the chain within a run of
# levels; see benches/src/gen.rs (Config::inline_chain).
# --cold evicts the processor caches before every timed run, so a small
# step does not start with the module still cached from its parse, and
# returns freed memory to the kernel, so every run faults its pages in as
# a fresh nvpass-cli process does.
# --runs N takes the best of N runs per stage (default 3).
# --rounds N runs the steps N times in turn (1x to 16x, then again) and
# keeps each cell's best time, so that a slow spell of the machine does not
# fall on a few neighbouring steps only (default 1).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base=1 steps=5 limit=1.15 strict=0 only=() chain=50 fan_in=200 scc=8 block_calls=0 cdp_block=0 dead=0 inline_chain=0 cold=() runs=3 rounds=1
while [ $# -gt 0 ]; do
  case $1 in
    --base-mb) base=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --strict) strict=1; shift ;;
    --only) only=(--only "$2"); shift 2 ;;
    --chain) chain=$2; shift 2 ;;
    --fan-in) fan_in=$2; shift 2 ;;
    --scc) scc=$2; shift 2 ;;
    --block-calls) block_calls=$2; shift 2 ;;
    --cdp-block) cdp_block=$2; shift 2 ;;
    --dead) dead=$2; shift 2 ;;
    --inline-chain) inline_chain=$2; shift 2 ;;
    --cold) cold=(--cold); shift ;;
    --runs) runs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: scripts/scaling.sh [--base-mb N] [--steps K] [--limit X] [--strict] [--only a,b] [--chain N] [--fan-in N] [--scc N] [--block-calls N] [--cdp-block N] [--dead N] [--inline-chain N] [--cold] [--runs N] [--rounds N]" >&2; exit 2 ;;
  esac
done
cargo build --release -q -p nvpass-benches --bin scale --manifest-path "$here/Cargo.toml"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$here/target/release/scale" --base-mb "$base" --steps "$steps" --chain "$chain" --fan-in "$fan_in" --scc "$scc" --block-calls "$block_calls" --cdp-block "$cdp_block" --dead "$dead" --inline-chain "$inline_chain" --runs "$runs" --rounds "$rounds" "${cold[@]}" "${only[@]}" | tee "$out"
echo
awk -v lim="$limit" '
  NR > 1 && $(NF-5) != "1x" {
    size = $(NF-5); ms = $(NF-3); t = $(NF-1); m = $NF
    stage = $1; for (i = 2; i <= NF - 6; i++) stage = stage " " $i
    if ((t > lim && ms >= 5) || m > lim) { printf "over %.2f: %-24s %5s  t/lin %s  mem/lin %s\n", lim, stage, size, t, m; n++ }
  }
  END { if (n == 0) printf "every stage within %.2f of linear\n", lim; exit (n > 0) }' "$out" && ok=1 || ok=0
[ "$ok" = 1 ] || [ "$strict" = 0 ]
