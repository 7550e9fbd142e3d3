#!/usr/bin/env bash
# Bounded fuzzing run: builds the cargo-fuzz targets in fuzz/ and runs each
# for SECONDS seconds of wall time.
#
#   scripts/fuzz-ci.sh [SECONDS] [TARGET...]
#
# SECONDS defaults to 60; TARGETs default to every target (`cargo fuzz
# list`). Targets are built on the stable toolchain with RUSTC_BOOTSTRAP=1
# (cargo-fuzz passes nightly-only flags), without a sanitizer (nvpass has no
# unsafe code) and with debug assertions, so arithmetic overflow panics.
#
# Each target starts from its committed corpus fuzz/corpus/TARGET (read
# only: new inputs go to a scratch directory) and runs with a 10 s per-input
# timeout and a 2 GiB memory limit, so a hang or a memory blow-up counts as
# a crash. Prints one line per target with its executions and a closing
# "N passed, N failed" line; exits non-zero when any target crashed. A
# crashing input is kept under fuzz/artifacts/TARGET/; reproduce it with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run -s none -a TARGET fuzz/artifacts/TARGET/crash-...
# and turn it into a regression test.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked || {
  echo "fuzz: cargo-fuzz is not installed and could not be installed"
  echo "0 passed, 1 failed"
  exit 1
}
cd "$here/fuzz"
flags=(-s none -a)
if ! cargo fuzz build "${flags[@]}" >build.log 2>&1; then
  tail -n 30 build.log
  rm -f build.log
  echo "fuzz: build failed"
  echo "0 passed, 1 failed"
  exit 1
fi
rm -f build.log
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo fuzz list)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for t in "${targets[@]}"; do
  mkdir -p "$work/$t" "artifacts/$t" "corpus/$t"
  start=$(date +%s)
  cargo fuzz run "${flags[@]}" "$t" "$work/$t" "corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"$work/$t.log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    pass=$((pass + 1))
    echo "PASS $t: ${execs:-?} executions in ${took}s, ${cov:-cov: ?}, 0 crashes"
  else
    fail=$((fail + 1))
    echo "FAIL $t: crash after ${execs:-?} executions in ${took}s (exit $rc)"
    grep -E 'panicked|ERROR: libFuzzer|SUMMARY|Test unit written|timeout' "$work/$t.log" | head -n 20 | sed 's/^/    /'
  fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
