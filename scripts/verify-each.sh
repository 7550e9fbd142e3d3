#!/usr/bin/env bash
# Runs every registered pass, in registration order, over every corpus
# module with the verifier after each pass.
#
#   scripts/verify-each.sh [CORPUS_DIR]
#
# The pipeline is computed from `nvpass-cli list-passes`, so passes
# registered later are included. Per module: `nvpass-cli run --verify-each
# --pipeline <all passes>` must succeed, or decline through a pass failure
# or error diagnostic (exit 1, "pass 'P' failed" / "pipeline reported
# errors"); a verifier failure on the input or after any pass, a crash, or
# any other exit fails the module. Prints one line per
# module and a closing "N passed, N failed" line; exits non-zero when any
# module failed. CORPUS_DIR defaults to $NVPASS_CORPUS or
# ~/.cache/nvpass-corpus (built by scripts/corpus-tier.sh when missing).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-${NVPASS_CORPUS:-$HOME/.cache/nvpass-corpus}}
shared=${NVPASS_SHARED:-$here/../shared}
if ! ls "$corpus"/ll/*.ll >/dev/null 2>&1; then
  bash "$shared/tools/build-corpus.sh" "$corpus" >&2 || { echo "verify-each: corpus build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
cli=${NVPASS_CLI:-$here/target/release/nvpass-cli}
[ -x "$cli" ] || cargo build --release -q -p nvpass-cli --manifest-path "$here/Cargo.toml"
pipeline=$("$cli" list-passes | tail -n +2 | awk '{print $1}' | paste -sd, -)
echo "verify-each: pipeline '${pipeline}'"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for ll in "$corpus"/ll/*.ll; do
  mod=$(basename "$ll" .ll)
  "$cli" run --verify-each --pipeline "$pipeline" "$ll" -o "$work/out.ll" >"$work/log" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    pass=$((pass + 1)); echo "PASS $mod"
  elif [ "$rc" -eq 1 ] && ! grep -q 'verification failed' "$work/log" &&
       grep -qE "error: pass '[^']*' failed|pipeline reported errors" "$work/log"; then
    pass=$((pass + 1)); echo "PASS $mod (declined: $(head -n 1 "$work/log"))"
  else
    fail=$((fail + 1)); echo "FAIL $mod (exit $rc)"; head -n 20 "$work/log" | sed 's/^/    /'
  fi
done
echo "verify-each: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
