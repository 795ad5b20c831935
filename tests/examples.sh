#!/usr/bin/env bash
# The examples are tests too: every test under examples/suite passes against
# the bundled mock, and examples/failing fails with the findings the README shows.
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(bash "$root/scripts/demo.sh" 2>&1)
rc=$?
pass=0 fail=0
check() { if grep -qF -- "$1" <<<"$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "missing: $1"; fi; }
[ $rc -eq 0 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "$out"; }
check "PASS  checkout flow with validation"
check "11 passed, 0 failed, 0 errors (11 tests)"
check 'turn 1: Tool "issue_refund" must be called after "lookup_order"'
check 'turn 1: Tool "issue_refund" call forbidden'
check "turn 1: Text must not match /processed/"
check "0 passed, 1 failed, 0 errors (1 test)"
check "PASS  coding agent edits only inside its sandbox"
check "PASS  [order-status] looks the order up before answering"
check "judge 'judge' passed"
check "PASS  [follow-up] answers from the conversation so far"
check "10 passed, 2 failed, 0 errors (12 tests)"   # examples/http, baseline
check "5 passed, 3 failed, 4 errors (12 tests)"    # examples/http, new
check "turn 1: network_error (socket_hang_up)"
check "PASS  the basket total comes from the tool server"   # examples/tools
check "Tool coverage: shop 2/31 tools (6%), 2 calls (1 mocked)"
for f in junit.xml results.json failing-junit.xml openai.md tools.md tools.json http-baseline.json http-new.json \
         http-baseline/run.json http-new/run.json compare/compare-report.json compare/report.html \
         compare/artifacts/manifest.json; do
  [ -s "$root/demo-out/$f" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "missing report $f"; }
done
echo "examples: $pass passed, $fail failed"
[ $fail -eq 0 ]
