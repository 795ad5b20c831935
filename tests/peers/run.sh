#!/usr/bin/env bash
# ananke against a peer it did not write: agui-server.mjs, a scripted agent
# whose every byte comes from the official AG-UI SDK (@ag-ui/encoder and
# @ag-ui/core, npm, pinned in package.json / package-lock.json).
#
# Needs node and tests/peers/node_modules (scripts/setup.sh runs npm there);
# without them this fails, it does not skip. Runs suite/pass (every test must
# pass) and suite/error (a RUN_ERROR: exit 1, status "error"), then checks
# the JSON reports' transcripts and the requests the server received with jq.
# Then frameworks.sh runs frameworks/ against AG-UI servers built with Mastra
# and CopilotKit (mastra/, copilotkit/: their own package.json and lock).
# Output lands in tests/peers/out/. Last line: "peers: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
B=$tests_build
ANANKE="$B/ananke"
export NO_COLOR=1
pass=0 fail=0 suite=peers # finish, broken: tests/lib.sh

need_node "the peer server is a Node program"
need_jq
[ -d "$here/node_modules/@ag-ui/encoder" ] && [ -d "$here/node_modules/@ag-ui/core" ] ||
  broken "tests/peers/node_modules/@ag-ui/{encoder,core} missing: run scripts/setup.sh (npm ci in tests/peers)"
[ -x "$ANANKE" ] || broken "$ANANKE not built (make build)"

out="$here/out"
rm -rf "$out"; mkdir -p "$out"

server_pid=""
stop_server() {
  stop_pids "$server_pid"
  server_pid=""
}
trap stop_server EXIT

# The server lives at most 5 minutes whatever happens to this script.
spawn_server "$out/port" 0.1 "$out/server.stdout" "$out/server.stderr" \
  timeout -k 5 300 node "$here/agui-server.mjs" 0 --port-file "$out/port" \
  --requests "$out/requests.jsonl"
started=$?
server_pid=$spawned_pid
if [ "$started" -ne 0 ]; then
  sed 's/^/    /' "$out/server.stderr" >&2
  stop_server
  broken "the peer server did not start within 10 s"
fi
export ANANKE_PEER_URL="http://127.0.0.1:$(tr -d '[:space:]' <"$out/port")/agent"

# check, jq_true, exit_is (in suite/): tests/lib.sh

# ---- the passing suite ----------------------------------------------------
P="$out/pass.json"
check "suite/pass exits 0" \
  exit_is 0 "$out/pass.log" "$ANANKE" run pass --reporter "json:$P"
[ -s "$P" ] || echo '{"tests":[]}' >"$P"

check "statuses of suite/pass" jq_true "$P" '
  [.tests[] | "\(.status) \(.name)"] | sort ==
  ["pass peer checkout flow", "pass peer chunk events",
   "pass peer frontend tool without result", "pass peer text answer"]'

# a test's transcript: T("name")
defs='def T($n): .tests[] | select(.name == $n) | .transcript;'

check "checkout: tool calls in order, one per turn group" jq_true "$P" "$defs"'
  T("peer checkout flow") |
  [.tool_calls[] | [.name, .turn]] ==
    [["validate_cart",0], ["get_shipping_options",0], ["calculate_total",1], ["charge_card",2]]'

check "checkout: args as the encoder sent them (text and parsed)" jq_true "$P" "$defs"'
  T("peer checkout flow") | .tool_calls |
  (map(.args_text) == ["{\"cart_id\":\"cart_42\"}", "{\"cart_id\":\"cart_42\"}",
                       "{\"shipping\":\"std\"}", "{\"amount\":54.99,\"card\":{\"last4\":\"4242\"}}"])
  and (.[3].args == {"amount": 54.99, "card": {"last4": "4242"}})'

check "checkout: every backend tool has its TOOL_CALL_RESULT" jq_true "$P" "$defs"'
  T("peer checkout flow") | [.tool_calls[].result] ==
  [{"valid":true,"items":2},
   {"options":[{"id":"std","price":4.99},{"id":"express","price":12.5}]},
   {"total":54.99,"currency":"EUR"},
   {"status":"approved","ref":"ch_1"}]'

check "checkout: text of each turn, deltas joined" jq_true "$P" "$defs"'
  T("peer checkout flow") | [.turns[].text] ==
  ["Let me check your cart.Your cart is valid. Shipping: standard (4.99) or express (12.50).",
   "Your total is 54.99 EUR. Shall I charge your card?",
   "Payment approved. Reference ch_1."]'

check "text: multibyte deltas joined exactly" jq_true "$P" "$defs"'
  T("peer text answer") | (.turns | map(.text)) == ["2 + 2 = 4 — naïve arithmetic ✓"]
  and .tool_calls == []'

check "frontend tool: captured with its args, no result" jq_true "$P" "$defs"'
  T("peer frontend tool without result") | .tool_calls | length == 1
  and .[0].name == "choose_delivery_date"
  and .[0].args == {"earliest":"2026-10-01","slots":["am","pm"]}
  and .[0].result == null'

check "chunks: text and tool args assembled from CHUNK events" jq_true "$P" "$defs"'
  T("peer chunk events") |
  (.turns | map(.text)) == ["Searching the catalogue…I found 3 pairs of running shoes."]
  and (.tool_calls | length == 1)
  and .tool_calls[0].name == "search_products"
  and .tool_calls[0].args_text == "{\"query\":\"running shoes\",\"filters\":{\"size\":42}}"
  and .tool_calls[0].result == {"hits":3}'

check "every turn answered 200 with a stream" jq_true "$P" '
  [.tests[].transcript.turns[] | .http_status == 200 and .status == "ok"] | all'

# ---- the requests the server received --------------------------------------
R="$out/requests.jsonl"
check "requests: one per turn, each run id the one in the transcript" jq_true "$R" '
  ([$rep[0].tests[].transcript.turns[].run_id] | sort) == (map(.body.runId) | sort)
  and (map(.body.runId) | unique | length) == length' --slurpfile rep "$P" -s

check "requests: Accept text/event-stream, full RunAgentInput" jq_true "$R" '
  map(.headers.accept == "text/event-stream"
      and (.body | has("threadId") and has("runId") and has("tools") and has("context")
                   and has("forwardedProps") and has("state"))
      and .body.forwardedProps == {"locale":"en-GB"}) | all' -s

check "requests: checkout keeps the thread and resends the history" jq_true "$R" '
  map(select(.body.messages[0].content | test("checkout"))) as $c |
  ($c | length) == 3
  and ($c | map(.body.threadId) | unique | length) == 1
  and ($c[2].body.messages | map(.role)) ==
      ["user","assistant","assistant","tool","assistant","tool","assistant","user",
       "assistant","tool","assistant","user"]
  and ($c[2].body.messages | map(select(.role == "assistant") | .toolCalls // [] | .[].function.name))
      == ["validate_cart","get_shipping_options","calculate_total"]
  and ($c[2].body.messages | map(select(.role == "tool") | .toolCallId))
      == ($c[2].body.messages | map(select(.role == "assistant") | .toolCalls // [] | .[].id))' -s

# ---- RUN_ERROR --------------------------------------------------------------
E="$out/error.json"
check "suite/error exits 1" \
  exit_is 1 "$out/error.log" "$ANANKE" run error --reporter "json:$E"
[ -s "$E" ] || echo '{"tests":[]}' >"$E"

check "RUN_ERROR reported as an error, with its message and code" jq_true "$E" '
  (.tests | length) == 1 and .tests[0].status == "error"
  and .tests[0].error.code == "AN_ERUN" and .tests[0].error.turn == 1
  and (.tests[0].error.message | contains("model overloaded, retry later"))
  and (.tests[0].error.message | contains("overloaded)"))
  and .summary == {"total":1,"passed":0,"failed":0,"errors":1,"skipped":0,"inconclusive":0,"expected_failures":0,"stale":0,"not_run":0,"runs_saved":0,"flaky":0,"agent_calls":1}'

check "RUN_ERROR: text before it kept" jq_true "$E" '
  .tests[0].transcript.turns | length == 1 and .[0].text == "Working on it"
  and .[0].status == "error"'

check "RUN_ERROR: console says so" \
  grep -qF "agent reported RUN_ERROR: model overloaded, retry later" "$out/error.log"

stop_server
check "server: no errors on its side" test ! -s "$out/server.stderr"

# ---- servers built with agent frameworks (Mastra, CopilotKit) --------------
# shellcheck source-path=SCRIPTDIR source=frameworks.sh
. "$here/frameworks.sh"

finish
