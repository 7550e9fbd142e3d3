#!/usr/bin/env bash
# Cross-checks process-restrict's alias scopes with LLVM's own alias
# analysis (scoped-noalias-aa alone).
#
#   tests/lit/process-restrict/check-aa.sh [TEST.ll ...]
#
# For each module (default: the tests listed below, and the corpus module
# restrict_atomics.fe when present) process-restrict runs,
# then `noalias` parameter attributes are stripped so that only the scopes
# can prove anything, and opt-19's aa-eval (-evaluate-aa-metadata) judges
# every load/store pair twice: "before" on that output with !alias.scope and
# !noalias removed, "after" on the output as is. Per pair:
#   disjoint  both accesses stamped, no scope in common: must be MayAlias
#             before and NoAlias after (the scopes prove it);
#   other     (a shared scope, e.g. a PHI of two roots vs one of them, or an
#             unstamped access): after must answer what before answered (the
#             scopes claim nothing there).
# Prints one line per pair and a closing "N passed, N failed" line; exits
# non-zero when anything failed. NVPASS_CLI overrides the nvpass-cli binary.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cli=${NVPASS_CLI:-$root/target/debug/nvpass-cli}
[ -x "$cli" ] || cargo build -q -p nvpass-cli --manifest-path "$root/Cargo.toml"
if [ $# -gt 0 ]; then
  tests=("$@")
else
  tests=("$here"/{spec-example,clang-noalias,derived-chains,phi-select,spill-slot,struct,existing-scopes}.ll)
  corpus=${NVPASS_CORPUS:-$HOME/.cache/nvpass-corpus}
  [ -f "$corpus/ll/restrict_atomics.fe.ll" ] && tests+=("$corpus/ll/restrict_atomics.fe.ll")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
aa() {
  opt-19 -aa-pipeline=scoped-noalias-aa -passes=aa-eval -print-all-alias-modref-info \
    -evaluate-aa-metadata -disable-output "$1" 2>&1 |
    grep -E '^Function: |^ *[A-Za-z]+Alias: .* <-> '
}
pass=0 fail=0
for t in "${tests[@]}"; do
  name=$(basename "$t" .ll)
  if ! "$cli" run --pipeline process-restrict --allow-restrict-in-struct "$t" -o "$work/out.ll" 2>/dev/null; then
    echo "FAIL $name: process-restrict failed"; fail=$((fail + 1)); continue
  fi
  sed -E '/^define/ s/ noalias\b//g' "$work/out.ll" >"$work/after.ll"
  sed -E 's/, !(alias\.scope|noalias) ![0-9]+//g' "$work/after.ll" >"$work/before.ll"
  if ! aa "$work/before.ll" >"$work/before.aa" 2>"$work/err" || ! aa "$work/after.ll" >"$work/after.aa" 2>"$work/err"; then
    echo "FAIL $name: opt-19 rejected the output"; sed 's/^/    /' "$work/err"; fail=$((fail + 1)); continue
  fi
  # aa-eval numbers metadata its own way, so each access's scope set is read
  # from nvpass's output (first two passes over after.ll) and looked up by
  # function and instruction text without the scope attachments.
  result=$(awk -v name="$name" '
    function strip(s) { gsub(/, !(alias\.scope|noalias) ![0-9]+/, "", s); sub(/^ +/, "", s); return s }
    function disjoint(a, b,   x, n, i) {
      if (a == "" || b == "") return 0
      n = split(a, x, ", ")
      for (i = 1; i <= n; i++) if (index(", " b ", ", ", " x[i] ", ")) return 0
      return 1
    }
    FILENAME == ARGV[1] && FNR == NR {
      if (match($0, /^![0-9]+ = !\{.*\}$/)) { v = $0; sub(/^[^{]*\{/, "", v); sub(/\}$/, "", v); list[$1] = v }
      next
    }
    FILENAME == ARGV[2] {
      if (match($0, /^define .*@[^(]+\(/)) { fn = $0; sub(/\(.*/, "", fn); sub(/.*@/, "", fn) }
      if (match($0, /!alias\.scope ![0-9]+/)) scope[fn " " strip($0)] = list[substr($0, RSTART + 13, RLENGTH - 13)]
      next
    }
    /^Function: / { fn = $2; sub(/:$/, "", fn); next }
    {
      verdict = $1; sub(/:$/, "", verdict); line = $0; sub(/^ *[A-Za-z]+: */, "", line)
      split(line, side, " <-> "); l = fn " " strip(side[1]); r = fn " " strip(side[2]); key = l " <-> " strip(side[2])
    }
    FILENAME == ARGV[3] { before[key] = verdict; next }
    {
      d = disjoint(scope[l], scope[r])
      b = (key in before) ? before[key] : "?"
      ok = d ? (b == "MayAlias" && verdict == "NoAlias") : (b == verdict)
      printf "%s %s %s: %s -> %s: %s\n", ok ? "PASS" : "FAIL", name, d ? "disjoint" : "other", b, verdict, key
    }' "$work/after.ll" "$work/after.ll" "$work/before.aa" "$work/after.aa")
  [ -n "$result" ] && echo "$result"
  pass=$((pass + $(grep -c '^PASS' <<<"$result")))
  fail=$((fail + $(grep -c '^FAIL' <<<"$result")))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
