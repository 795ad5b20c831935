#!/usr/bin/env bash
# Data races: ananke and ananke-mock built with ThreadSanitizer (into
# build-tsan/), then the end-to-end cases whose runs share several event
# loops (--loops) or run hooks, script checks and judges on helper threads.
# Any race report fails its case (TSan exits 66 on the first one).
# Ends with "tsan: N passed, N failed".
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build-tsan
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { cmake -S "$root" -B "$B" -DCMAKE_BUILD_TYPE=Debug -DANANKE_SANITIZE=thread >"$log" 2>&1 &&
       cmake --build "$B" -j"$(nproc)" --target ananke-cli ananke-mock >>"$log" 2>&1; }; then
  grep -E "error|warning" "$log" | head -n 20
  echo "FAIL the ThreadSanitizer build"
  echo "tsan: 0 passed, 1 failed"
  exit 1
fi
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
ANANKE_BUILD="$B" bash "$root/tests/e2e/run.sh" parallel many-streams timeout interrupt retries \
  flaky adaptive jsonl-script-parallel jsonl-judge dynamic hooks 2>&1 | sed 's/^e2e:/tsan:/'
exit "${PIPESTATUS[0]}"
