#!/usr/bin/env bash
# Differential tier: LLVM's random module generator against nvpass's reader
# and printer.
#
#   scripts/differential-stress.sh [N] [FIRST_SEED]
#
# For N seeds (default 200, starting at FIRST_SEED, default 1) of
# `llvm-stress-19 -size 300 -seed S`, keeps the modules llvm-as-19 accepts
# and checks, per seed:
#   roundtrip  nvpass-cli run --pipeline '' reads, verifies and prints it
#   diff       llvm-diff-19 finds no difference between input and output
#   canon      llvm-as-19 | llvm-dis-19 gives identical text for both (this
#              also compares globals, attributes and metadata, which
#              llvm-diff does not look at; the ModuleID line is skipped)
#   fixpoint   printing the output again gives identical bytes
# A seed passes when all four hold. Prints one FAIL line per failing seed
# (with the check and the tool's first lines) and a closing
# "N passed, N failed" line; exits non-zero when any seed failed. Reproduce
# a failure with `llvm-stress-19 -size 300 -seed S -o s.ll`.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-200}
first=${2:-1}
for tool in llvm-stress-19 llvm-as-19 llvm-dis-19 llvm-diff-19; do
  command -v "$tool" >/dev/null || { echo "differential: $tool not found"; echo "0 passed, 1 failed"; exit 1; }
done
cli=${NVPASS_CLI:-$here/target/release/nvpass-cli}
[ -x "$cli" ] || cargo build --release -q -p nvpass-cli --manifest-path "$here/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skipped=0
for ((s = first; s < first + n; s++)); do
  in="$work/in.ll" out="$work/out.ll"
  rm -f "$out"
  llvm-stress-19 -size 300 -seed "$s" -o "$in" 2>/dev/null
  if ! llvm-as-19 "$in" -o "$work/in.bc" 2>/dev/null; then
    skipped=$((skipped + 1))
    continue
  fi
  what=
  if ! "$cli" run --pipeline '' "$in" -o "$out" >"$work/log" 2>&1; then
    what=roundtrip
  elif ! llvm-diff-19 "$in" "$out" >"$work/log" 2>&1; then
    what=diff
  elif ! { llvm-as-19 "$out" -o "$work/out.bc" 2>"$work/log" &&
           llvm-dis-19 "$work/in.bc" -o "$work/in.dis" &&
           llvm-dis-19 "$work/out.bc" -o "$work/out.dis" &&
           diff <(tail -n +2 "$work/in.dis") <(tail -n +2 "$work/out.dis") >"$work/log"; }; then
    what=canon
  elif ! { "$cli" run --pipeline '' "$out" -o "$work/again.ll" >"$work/log" 2>&1 &&
           cmp "$out" "$work/again.ll" >>"$work/log" 2>&1; }; then
    what=fixpoint
  fi
  if [ -z "$what" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL seed $s: $what"
    head -n 12 "$work/log" | sed 's/^/    /'
  fi
done
echo "differential: $n seeds from $first, $skipped not accepted by llvm-as-19 (skipped)"
echo "differential: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
