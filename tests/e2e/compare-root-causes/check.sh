# ananke compare's root causes: a RUN_ERROR the agent sends is the agent's
# error (agent_error), not missing_required_data, and raises no
# runner_failure_detected security signal; a text check that regresses has a
# root cause (text_mismatch), not unknown.
set -e
fail() { echo "$*"; exit 1; }
record() { # SIDE SCENARIO
  "$MOCK" agui --scenario "$2" --port-file "$OUT/$1.port" >"$OUT/$1.mock.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do [ -s "$OUT/$1.port" ] && break; sleep 0.05; done
  [ -s "$OUT/$1.port" ] || { kill "$pid"; fail "mock $1 did not start"; }
  local rc=0
  (cd project && ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$OUT/$1.port")/agent" \
     "$ANANKE" run --record "$OUT/$1" >"$OUT/$1.log" 2>&1) || rc=$?
  kill "$pid"; wait "$pid" 2>/dev/null || true
  [ "$rc" -le 1 ] || fail "recording $1 exited $rc: $(cat "$OUT/$1.log")"
}
record base base.yaml
record new new.yaml
"$ANANKE" compare "$OUT/base" "$OUT/new" -o "$OUT/pack" >"$OUT/compare.log" 2>&1 || fail "compare: $(cat "$OUT/compare.log")"
grep -qx 'REGRESSION order status: pass -> error (agent_error), gate require_approval' "$OUT/compare.log" ||
  fail "order: $(cat "$OUT/compare.log")"
grep -qx 'REGRESSION greets: pass -> fail (text_mismatch), gate require_approval' "$OUT/compare.log" ||
  fail "greets: $(cat "$OUT/compare.log")"
R="$OUT/pack/compare-report.json"
jq -e '.items[] | select(.case_id == "order status") | .new_root == "agent_error"
       and .failure_summary.new.class == "run_error"
       and ([.security.new.signals[].kind] | index("runner_failure_detected") | not)
       and (.data_availability.new.reason_code == null)' "$R" >/dev/null ||
  fail "order item: $(jq -c '.items[] | select(.case_id == "order status")' "$R")"
jq -e '.items[] | select(.case_id == "greets") | .new_root == "text_mismatch"' "$R" >/dev/null ||
  fail "greets item: $(jq -c '.items[] | select(.case_id == "greets")' "$R")"
jq -e '.summary.root_cause_breakdown == {"agent_error": 1, "text_mismatch": 1}' "$R" >/dev/null ||
  fail "breakdown: $(jq -c .summary.root_cause_breakdown "$R")"
