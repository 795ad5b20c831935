#!/usr/bin/env bash
# End-to-end checks of `ananke-mock a2a`: start it (A2A 1.0 and 0.3) on free
# ports, drive it with curl and check what an A2A client would observe with
# jq (the card, SendMessage / message/send answers, streamed events,
# input-required then completion, GetTask, CancelTask, the version header,
# every fault, the request log, a prompt stop on SIGTERM); then run the A2A
# SDK agent's passing suite (tests/a2a/suite/pass) against it with ananke,
# streamed and blocking, over both versions.
# Prints one line per check and "mock-a2a: N passed, N failed"; exits
# non-zero on any failure.
#
#   ANANKE_BUILD=build-mocks tests/mock/a2a.sh
set -u
suite=mock-a2a pass=0 fail=0
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
ANANKE=$tests_build/ananke
[ -x "$ANANKE" ] || broken "no executable at $ANANKE (set ANANKE_BUILD)"

# rpc URL VERSION_HEADER METHOD PARAMS [CURL ARGS...]: the answer on stdout
rpc() {
    local url=$1 v=$2 method=$3 params=$4
    shift 4
    local hv=()
    [ -n "$v" ] && hv=(-H "A2A-Version: $v")
    timeout 10 curl -sN -D "$TMP/hdr" -H 'Content-Type: application/json' "${hv[@]}" \
        --data-binary "$(jq -cn --arg m "$method" --argjson p "$params" \
            '{jsonrpc: "2.0", id: 7, method: $m, params: $p}')" "$@" "$url/rpc"
}
msg10() { jq -cn --arg t "$1" '{message: {messageId: "m1", role: "ROLE_USER", parts: [{text: $t}]}}'; }
msg03() { jq -cn --arg t "$1" '{message: {kind: "message", messageId: "m1", role: "user", parts: [{kind: "text", text: $t}]}}'; }
events() { sed -n 's/^data: //p' "$1"; }
status() { head -n1 "$TMP/hdr" | awk '{print $2}'; }

mock_start v10 a2a --requests "$TMP/v10.log"
U10=$URL P10=$PID
mock_start v03 a2a --version 0.3 --requests "$TMP/v03.log"
U03=$URL P03=$PID

# ---- the cards ----------------------------------------------------------------------------
same "startup: one line on stdout" 1 "$(wc -l <"$TMP/v10.out" | tr -d ' ')"
same "startup: port file matches the url" "http://127.0.0.1:$(cat "$TMP/v10.port")" "$U10"
if command -v ss >/dev/null; then
    same "startup: listens on 127.0.0.1 only" "127.0.0.1:$(cat "$TMP/v10.port")" \
        "$(ss -ltnH "sport = :$(cat "$TMP/v10.port")" | awk '{print $4}' | sort -u)"
fi
curl -s "$U10/.well-known/agent-card.json" >"$TMP/card"
same "1.0 card: one JSON-RPC 1.0 interface at /rpc" "[{\"url\":\"$U10/rpc\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}]" \
    "$(jq -c .supportedInterfaces "$TMP/card")"
same "1.0 card: streaming" true "$(jq .capabilities.streaming "$TMP/card")"
curl -s "$U03/.well-known/agent-card.json" >"$TMP/card"
same "0.3 card: url, transport, version" "{\"url\":\"$U03/rpc\",\"preferredTransport\":\"JSONRPC\",\"protocolVersion\":\"0.3.0\"}" \
    "$(jq -c '{url, preferredTransport, protocolVersion}' "$TMP/card")"
same "an unknown path is 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "$U10/nope")"

# ---- 1.0 -----------------------------------------------------------------------------------
rpc "$U10" 1.0 SendMessage "$(msg10 hello)" >"$TMP/a"
same "1.0 SendMessage: a completed task with its artifact" '{"state":"TASK_STATE_COMPLETED","art":"echo: hello","id":7}' \
    "$(jq -c '{state: .result.task.status.state, art: .result.task.artifacts[0].parts[0].text, id}' "$TMP/a")"
TID=$(jq -r .result.task.id "$TMP/a")
rpc "$U10" "" SendMessage "$(msg10 hello)" >"$TMP/a"
same "1.0: no A2A-Version header is -32009" -32009 "$(jq .error.code "$TMP/a")"
rpc "$U10" 1.0 message/send "$(msg10 hello)" >"$TMP/a"
same "1.0: a 0.3 method is -32601" -32601 "$(jq .error.code "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 "msg:hi")" >"$TMP/a"
same "1.0 msg: a direct message" '{"role":"ROLE_AGENT","text":"echo: hi","task":null}' \
    "$(jq -c '{role: .result.message.role, text: .result.message.parts[0].text, task: .result.task}' "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 "ask:a flight")" >"$TMP/a"
ASK=$(jq -r .result.task.id "$TMP/a")
same "1.0 ask: input-required" '"TASK_STATE_INPUT_REQUIRED need more input"' \
    "$(jq '.result.task.status | .state + " " + .message.parts[0].text' "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 "from SFO" | jq -c --arg t "$ASK" '.message.taskId = $t')" >"$TMP/a"
same "1.0 ask: the reply completes the same task" "\"$ASK TASK_STATE_COMPLETED echo: from SFO\"" \
    "$(jq '.result.task | .id + " " + .status.state + " " + .artifacts[0].parts[0].text' "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 "again" | jq -c --arg t "$ASK" '.message.taskId = $t')" >"$TMP/a"
same "1.0 ask: a reply to a finished task is -32004" -32004 "$(jq .error.code "$TMP/a")"
rpc "$U10" 1.0 GetTask "{\"id\":\"$TID\"}" >"$TMP/a"
same "1.0 GetTask" "\"$TID TASK_STATE_COMPLETED\"" "$(jq '.result | .id + " " + .status.state' "$TMP/a")"
rpc "$U10" 1.0 GetTask '{"id":"nope"}' >"$TMP/a"
same "1.0 GetTask of an unknown task is -32001" -32001 "$(jq .error.code "$TMP/a")"
rpc "$U10" 1.0 CancelTask "{\"id\":\"$TID\"}" >"$TMP/a"
same "1.0 CancelTask of a finished task is -32002" -32002 "$(jq .error.code "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 "fail:launch")" >"$TMP/a"
same "1.0 fail: a failed task" '"TASK_STATE_FAILED cannot do: launch"' \
    "$(jq '.result.task.status | .state + " " + .message.parts[0].text' "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 "tool:everything")" >"$TMP/a"
same "1.0 tool: a malformed tool request fails, saying the form" \
    '"TASK_STATE_FAILED cannot do: tool:everything (want tool:SERVER:TOOL {JSON object})"' \
    "$(jq '.result.task.status | .state + " " + .message.parts[0].text' "$TMP/a")"
rpc "$U10" 1.0 SendMessage "$(msg10 'tool:nowhere:echo {"message": "x"}')" >"$TMP/a"
same "1.0 tool: an unknown tool server is a tool error in the artifact" \
    '["tool:echo",true]' \
    "$(jq -c '.result.task.artifacts[0] | [.name, (.parts[0].text | test("tool error"))]' "$TMP/a")"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 hello)" >"$TMP/s"
same "1.0 stream: content type" text/event-stream "$(grep -i '^content-type:' "$TMP/hdr" | tr -d '\r' | awk '{print $2}')"
same "1.0 stream: task, working, artifact, completed" '["task:TASK_STATE_SUBMITTED","statusUpdate:TASK_STATE_WORKING","artifactUpdate","statusUpdate:TASK_STATE_COMPLETED"]' \
    "$(events "$TMP/s" | jq -cs 'map(.result | to_entries[0] | .key + (if .value.status then ":" + .value.status.state else "" end))')"
same "1.0 stream: every event under the request's id" '[7]' "$(events "$TMP/s" | jq -cs 'map(.id) | unique')"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 chunks)" >"$TMP/s"
same "chunks: three appended chunks" '[[false,false,"Once "],[true,false,"upon "],[true,true,"a time"]]' \
    "$(events "$TMP/s" | jq -cs 'map(.result.artifactUpdate | select(.) | [.append, .lastChunk, .artifact.parts[0].text])')"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 garbage)" >"$TMP/s"
same "garbage: the second event is not JSON" 'data: {"jsonrpc":"2.0","id":1,"result":{not json' "$(grep '^data:' "$TMP/s" | sed -n 2p)"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 shape)" >"$TMP/s"
same "shape: a result of no known shape" '{"foo":1}' "$(events "$TMP/s" | jq -c .result)"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 rpcerror)" >"$TMP/s"
same "rpcerror: a JSON error to a streaming call" "application/json -32004" \
    "$(grep -i '^content-type:' "$TMP/hdr" | tr -d '\r' | awk '{print $2}') $(jq .error.code "$TMP/s")"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 cut)" >"$TMP/s"
same "cut: the stream is cut (curl: transfer closed)" 18 "$?"
same "cut: after working" '"TASK_STATE_WORKING"' "$(events "$TMP/s" | jq -s '.[-1].result.statusUpdate.status.state')"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 wrongid)" >"$TMP/s"
same "wrongid: events under another id" '[1007]' "$(events "$TMP/s" | jq -cs 'map(.id) | unique')"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 http500)" >"$TMP/s"
same "http500: status 500" 500 "$(status)"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 open)" --max-time 1 >"$TMP/s"
same "open: the stream stays open (curl timed out)" 28 "$?"
same "open: after its final state" '"TASK_STATE_COMPLETED"' "$(events "$TMP/s" | jq -s '.[-1].result.statusUpdate.status.state')"
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 hang)" --max-time 1 >"$TMP/s"
same "hang: the stream never ends (curl timed out)" 28 "$?"
HANG=$(events "$TMP/s" | jq -rs '.[0].result.task.id')
rpc "$U10" 1.0 CancelTask "{\"id\":\"$HANG\"}" >"$TMP/a"
same "hang: CancelTask cancels it" '"TASK_STATE_CANCELED"' "$(jq .result.status.state "$TMP/a")"
rpc "$U10" 1.0 GetTask "{\"id\":\"$HANG\"}" >"$TMP/a"
same "hang: GetTask says canceled" '"TASK_STATE_CANCELED"' "$(jq .result.status.state "$TMP/a")"
timeout 10 curl -s -H 'A2A-Version: 1.0' --data-binary 'not json' "$U10/rpc" >"$TMP/a"
same "a body that is not JSON is -32700" '{"id":null,"code":-32700}' "$(jq -c '{id, code: .error.code}' "$TMP/a")"
same "--requests: one line per request, with the version header" '{"method":"POST","path":"/rpc","v":"1.0","m":"SendMessage"}' \
    "$(jq -c 'select(.method == "POST")' "$TMP/v10.log" | head -n1 | jq -c '{method, path, v: .headers["a2a-version"], m: .body.method}')"

# ---- 0.3 -----------------------------------------------------------------------------------
rpc "$U03" "" message/send "$(msg03 hello)" >"$TMP/a"
same "0.3 message/send: a task with kind" '{"kind":"task","state":"completed","part":{"kind":"text","text":"echo: hello"}}' \
    "$(jq -c '.result | {kind, state: .status.state, part: .artifacts[0].parts[0]}' "$TMP/a")"
rpc "$U03" 1.0 message/send "$(msg03 hello)" >"$TMP/a"
same "0.3: A2A-Version 1.0 is -32009" -32009 "$(jq .error.code "$TMP/a")"
rpc "$U03" "" SendMessage "$(msg03 hello)" >"$TMP/a"
same "0.3: a 1.0 method is -32601" -32601 "$(jq .error.code "$TMP/a")"
rpc "$U03" "" message/stream "$(msg03 hello)" >"$TMP/s"
same "0.3 stream: kinds, and final on the last" '["task:null","status-update:false","artifact-update:null","status-update:true"]' \
    "$(events "$TMP/s" | jq -cs 'map(.result | .kind + ":" + (.final | tostring))')"
rpc "$U03" "" message/send "$(msg03 "msg:yo")" >"$TMP/a"
same "0.3 msg: a message with kind" '{"kind":"message","role":"agent"}' "$(jq -c '.result | {kind, role}' "$TMP/a")"
rpc "$U03" "" message/stream "$(msg03 hang)" --max-time 1 >"$TMP/s"
HANG=$(events "$TMP/s" | jq -rs '.[0].result.id')
rpc "$U03" "" tasks/cancel "{\"id\":\"$HANG\"}" >"$TMP/a"
same "0.3 tasks/cancel" '"canceled"' "$(jq .result.status.state "$TMP/a")"
rpc "$U03" "" tasks/get "{\"id\":\"$HANG\"}" >"$TMP/a"
same "0.3 tasks/get" '"task canceled"' "$(jq '.result | .kind + " " + .status.state' "$TMP/a")"

# ---- ananke against it: the SDK agent's passing suite ------------------------------------------
for c in v10:1.0:true v10-json:1.0:false v03:0.3:true v03-json:0.3:false; do
    IFS=: read -r name v stream <<<"$c"
    url=$U10
    [ "$v" = 0.3 ] && url=$U03
    printf 'version: "1.0"\ntarget:\n  type: a2a\n  agentCardUrl: "%s/.well-known/agent-card.json"\n  stream: %s\n  timeout_ms: 5000\n' \
        "$url" "$stream" >"$TMP/$name.config.yaml"
    (cd "$tests_root/tests/a2a/suite" && NO_COLOR=1 "$ANANKE" run -c "$TMP/$name.config.yaml" pass \
        --reporter "json:$TMP/$name.json") >"$TMP/$name.run" 2>&1
    same "ananke $name: the passing suite passes (exit 0)" 0 "$?"
    same "ananke $name: five tests pass" '["pass","pass","pass","pass","pass"]' \
        "$(jq -c '[.tests[].status]' "$TMP/$name.json" 2>/dev/null)"
done

# ---- stop ---------------------------------------------------------------------------------------
rpc "$U10" 1.0 SendStreamingMessage "$(msg10 hang)" --max-time 5 >/dev/null &
sleep 0.3
mock_stop "1.0 and 0.3, a stream open" "$P10" "$P03"
wait
same "nothing on stderr" "" "$(cat "$TMP/v10.err" "$TMP/v03.err")"
"$MOCK" a2a --version 2.0 >/dev/null 2>"$TMP/err"
same "flags: a bad --version" "2 ananke-mock a2a: --version must be 1.0 or 0.3, not '2.0'" "$? $(head -n1 "$TMP/err")"

finish
