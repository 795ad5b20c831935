#!/usr/bin/env bash
# The whole suite: unit tests (ctest), the mock's own tests, end-to-end cases,
# and the peer test against the official AG-UI encoder. Ends with one line
# "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${ANANKE_BUILD:-build}
pass=0 fail=0
failed=()

step() { # NAME COMMAND...
  local name=$1; shift
  echo "== $name"
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$name"); fi
}

step unit ctest --test-dir "$B" --output-on-failure -j2
[ -f tests/mock/run.sh ] && step mock env ANANKE_BUILD="$B" bash tests/mock/run.sh
step e2e env ANANKE_BUILD="$B" bash tests/e2e/run.sh
[ -f tests/peers/run.sh ] && step peers env ANANKE_BUILD="$B" bash tests/peers/run.sh

echo
[ ${#failed[@]} -gt 0 ] && echo "failed suites: ${failed[*]}"
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
