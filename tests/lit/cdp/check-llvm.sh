#!/usr/bin/env bash
# Cross-checks the CDP lit tests with LLVM: each test's input is run through
# `nvpass-cli run --pipeline cdp` and the output must pass
# `opt-19 -passes=verify`, compile with `llc-19 -march=nvptx64 -mcpu=sm_90`,
# and the PTX must assemble with `ptxas -arch=sm_90 -c` (which rejects a stub
# called with two signatures). Tests whose every RUN line expects failure
# (`RUN: not ...`) produce no output and are skipped.
#
#   tests/lit/cdp/check-llvm.sh
#
# NVPASS_CLI overrides the nvpass-cli binary (default: target/release);
# NVPASS_PTXAS the ptxas binary (default: the corpus's, else `ptxas` on PATH;
# the ptxas step is skipped with a note when there is none). Prints
# one line per test and a closing "N passed, N failed" line; exits non-zero
# when anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cli=${NVPASS_CLI:-$root/target/release/nvpass-cli}
[ -x "$cli" ] || cargo build --release -q -p nvpass-cli --manifest-path "$root/Cargo.toml"
ptxas=${NVPASS_PTXAS:-/root/.cache/nvpass-corpus/bin/ptxas}
[ -x "$ptxas" ] || ptxas=$(command -v ptxas || true)
[ -n "$ptxas" ] || echo "note: no ptxas; PTX is not assembled"
assemble() { [ -z "$ptxas" ] || "$ptxas" -arch=sm_90 -c "$1" -o "$1.o"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for ll in "$here"/*.ll; do
  name=$(basename "$ll" .ll)
  if ! grep -q '^; RUN: nvpass-cli' "$ll"; then
    echo "SKIP $name (expects an error)"
    continue
  fi
  out="$work/$name.ll"
  if "$cli" run --pipeline cdp "$ll" -o "$out" 2>"$work/log" &&
     opt-19 -passes=verify -disable-output "$out" 2>>"$work/log" &&
     llc-19 -march=nvptx64 -mcpu=sm_90 "$out" -o "$work/$name.ptx" 2>>"$work/log" &&
     assemble "$work/$name.ptx" 2>>"$work/log"; then
    pass=$((pass + 1)); echo "PASS $name"
  else
    fail=$((fail + 1)); echo "FAIL $name"; grep -v 'warning:' "$work/log" | head -n 20 | sed 's/^/    /'
  fi
done
echo "cdp llvm check: $pass passed, $fail failed"
[ "$fail" = 0 ]
