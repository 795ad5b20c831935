#!/usr/bin/env bash
# YAML suites with `type: acp` against the ACP SDK's example agent: a real
# agent written by someone else (npm @agentclientprotocol/sdk 1.9.0,
# installed by scripts/setup.sh through tests/comply/package.json).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
agent="$root/tests/comply/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js"
pass=0 fail=0
if ! command -v node >/dev/null || [ ! -f "$agent" ]; then
  echo "acp-sdk: node or $agent is missing (scripts/setup.sh installs it)"
  echo "acp-sdk: 0 passed, 1 failed"; exit 1
fi
export ANANKE_SDK_AGENT="$agent"
out="$here/out"; rm -rf "$out"; mkdir -p "$out"
check() { if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $*"; fi; }
for policy in allow deny; do
  (cd "$here/$policy" && timeout 120 "$B/ananke" run . --reporter json:"$out/$policy.json") >"$out/$policy.log" 2>&1
  rc=$?
  echo "== $policy (exit $rc)"; sed 's/^/  /' "$out/$policy.log"
  check [ "$rc" = 0 ]
  check jq -e '.summary.passed == 1' "$out/$policy.json"
done
# the agent's permission request was answered by the policy: allow, then reject
check jq -e '.tests[0].transcript.tool_calls[] | select(.name == "session/request_permission") | .result.outcome.optionId == "allow"' "$out/allow.json"
check jq -e '.tests[0].transcript.tool_calls[] | select(.name == "session/request_permission") | .result.outcome.optionId == "reject"' "$out/deny.json"
echo "acp-sdk: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
