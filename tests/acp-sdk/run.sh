#!/usr/bin/env bash
# YAML suites with `type: acp` against real agents written on the ACP SDK
# (npm @agentclientprotocol/sdk), both majors, the same suites and checks:
#  - 1.9: the SDK's own example agent (dist/examples/agent.js), installed by
#    scripts/setup.sh through tests/comply/package.json;
#  - 2.x: agent2.mjs, the same scripted turn on the 2.x app API (2.x packages
#    ship no example agent), the SDK installed through tests/acp-sdk/package.json;
#    its pauses cut to 50 ms (the 1.9 example sleeps 1 s between steps).
# Then the two transcripts are compared: same tool calls, results and text.
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
agent19="$root/tests/comply/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js"
agent2="$here/agent2.mjs"
sdk2="$here/node_modules/@agentclientprotocol/sdk/package.json"
pass=0 fail=0
check() { if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $*"; fi; }
if ! command -v node >/dev/null || [ ! -f "$agent19" ] || [ ! -f "$sdk2" ]; then
  echo "acp-sdk: node, $agent19 or $sdk2 is missing (scripts/setup.sh installs them)"
  echo "acp-sdk: 0 passed, 1 failed"; exit 1
fi
check jq -e '.version | startswith("2.")' "$sdk2"
out="$here/out"; rm -rf "$out"; mkdir -p "$out"
export ANANKE_AGENT_PAUSE_MS=50 # agent2.mjs only
for sdk in 1.9 2; do
  if [ "$sdk" = 1.9 ]; then export ANANKE_SDK_AGENT="$agent19"; else export ANANKE_SDK_AGENT="$agent2"; fi
  for policy in allow deny; do
    o="$out/$policy-$sdk"
    (cd "$here/$policy" && timeout 120 "$B/ananke" run . --reporter json:"$o.json") >"$o.log" 2>&1
    rc=$?
    echo "== $policy, SDK $sdk (exit $rc)"; sed 's/^/  /' "$o.log"
    check [ "$rc" = 0 ]
    check jq -e '.summary.passed == 1' "$o.json"
  done
  # the agent's permission request was answered by the policy: allow, then reject
  check jq -e '.tests[0].transcript.tool_calls[] | select(.name == "session/request_permission") | .result.outcome.optionId == "allow"' "$out/allow-$sdk.json"
  check jq -e '.tests[0].transcript.tool_calls[] | select(.name == "session/request_permission") | .result.outcome.optionId == "reject"' "$out/deny-$sdk.json"
done
# the two SDKs' agents, as ananke saw them: the same calls, args (but the
# random session id), results and text
same() {
  local f='.tests[0].transcript | {text: [.turns[].text], calls: [.tool_calls[] | {name, args: (.args | del(.sessionId?)), result}]}'
  if ! diff <(jq -S "$f" "$out/$1-1.9.json") <(jq -S "$f" "$out/$1-2.json") >"$out/$1.diff"; then
    echo "acp-sdk: $1: SDK 1.9 and 2.x transcripts differ:"; sed 's/^/  /' "$out/$1.diff"
    return 1
  fi
}
check same allow
check same deny
echo "acp-sdk: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
