# Sourced by tests/comply/run.sh: the compliance suite against the ACP SDK 2.x
# agent (tests/acp-sdk/agent2.mjs on @agentclientprotocol/sdk 2.x, installed
# through tests/acp-sdk/package.json; 2.x ships no example agent) beside the
# 1.9 example agent, at the same pace (1 s between steps): every test must earn
# the status the 1.9 example earns. sdk2_start runs it in the background,
# sdk2_check compares (after the 1.9 run's checks, its report in $TMP/sdk.json).
#
# shellcheck shell=bash

sdk2_pid=""
SDK2_JS=$HERE/../acp-sdk/agent2.mjs
SDK2_PKG=$HERE/../acp-sdk/node_modules/@agentclientprotocol/sdk/package.json

sdk2_start() {
  [ -f "$SDK2_PKG" ] && command -v node >/dev/null || return 0
  "$ANANKE" comply -j 8 --timeout-scale 0.6 --agent sdk2-agent="node $SDK2_JS" -r json:"$TMP/sdk2.json" \
    >"$TMP/sdk2.md" 2>"$TMP/sdk2.err" &
  sdk2_pid=$!
}

sdk2_check() {
  if [ -z "$sdk2_pid" ]; then
    bad "sdk 2.x agent: $SDK2_PKG missing (run scripts/setup.sh; needs node and npm)"
    return
  fi
  wait "$sdk2_pid"
  local rc=$?
  sdk2_pid=""
  if [ "$rc" -eq 0 ]; then ok "sdk 2.x: exit 0 (no required failure)"; else bad "sdk 2.x: exit $rc"; fi
  local st='[.agents[0].tests[] | "\(.id) \(.status)"] | sort | .[]'
  if [ -s "$TMP/sdk.json" ] &&
     diff <(jq -r "$st" "$TMP/sdk.json") <(jq -r "$st" "$TMP/sdk2.json") >"$TMP/sdk2.diff"; then
    ok "sdk 2.x: every test's status is the 1.9 example's ($(jq '.agents[0].tests | length' "$TMP/sdk2.json") tests)"
  else
    bad "sdk 2.x: statuses differ from the 1.9 example's (< 1.9, > 2.x)"
    sed 's/^/    /' "$TMP/sdk2.diff"
  fi
}
