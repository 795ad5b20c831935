#!/usr/bin/env bash
# End-to-end checks of `ananke-mock openai`: start it on a free port with
# tests/mock/openai/full.yaml, drive it with curl, check what an OpenAI
# client would observe with jq (shapes, streamed chunks reassembled into the
# same message as the plain answer, statuses, faults, the request log).
# Prints one line per check and "mock-openai: N passed, N failed"; exits
# non-zero on any failure.
#
#   ANANKE_BUILD=build-mockoa tests/mock/openai.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${ANANKE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
MOCK=$BUILD/ananke-mock
SCN=$HERE/openai/full.yaml
TMP=$(mktemp -d)
PASS=0
FAIL=0
PID=

cleanup() {
    if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
        kill -TERM "$PID" 2>/dev/null
        wait "$PID" 2>/dev/null
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

ok() {
    PASS=$((PASS + 1))
    echo "ok   $1"
}
bad() {
    FAIL=$((FAIL + 1))
    echo "FAIL $*"
}
check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: expected [$2], got [$3]"; fi
}

if [ ! -x "$MOCK" ] || ! command -v jq >/dev/null; then
    echo "no executable at $MOCK (set ANANKE_BUILD), or no jq"
    echo "mock-openai: 0 passed, 1 failed"
    exit 1
fi

start() { # start SCENARIO [FLAGS...]: sets PID and URL once the port file is there
    local scenario=$1
    shift
    rm -f "$TMP/port" "$TMP/out" "$TMP/err"
    "$MOCK" openai --scenario "$scenario" --port 0 --port-file "$TMP/port" "$@" \
        >"$TMP/out" 2>"$TMP/err" &
    PID=$!
    for _ in $(seq 100); do
        [ -s "$TMP/port" ] && [ -s "$TMP/out" ] && break
        sleep 0.05
    done
    URL=$(head -n1 "$TMP/out")
    PORT=$(cat "$TMP/port" 2>/dev/null)
}
stop() { # stop NAME: SIGTERM, expect a prompt exit 0
    local t0 t1 rc
    t0=$(date +%s%N)
    kill -TERM "$PID"
    wait "$PID"
    rc=$?
    t1=$(date +%s%N)
    PID=
    check "$1: exit status after SIGTERM" 0 "$rc"
    if [ $(((t1 - t0) / 1000000)) -lt 2000 ]; then ok "$1: stops promptly"; else
        bad "$1: took $(((t1 - t0) / 1000000)) ms to stop"
    fi
}

# chat MODEL TEXT [STREAM]: a request body with one user message
chat() {
    jq -cn --arg m "$1" --arg t "$2" --argjson s "${3:-false}" \
        '{model: $m, messages: [{role: "system", content: "be brief"}, {role: "user", content: $t}]}
         + (if $s then {stream: true} else {} end)'
}
post() { # post BODY [CURL ARGS...]: the answer on stdout, curl's status in $?
    local data=$1
    shift
    timeout 10 curl -sN -H 'Content-Type: application/json' -H 'Authorization: Bearer sk-test' \
        --data-binary "$data" "$@" "$URL/v1/chat/completions"
}
# The message a plain answer carries, in the form reassemble gives.
message() {
    jq -c '{content: (.choices[0].message.content // ""),
            tool_calls: (.choices[0].message.tool_calls // []),
            finish_reason: .choices[0].finish_reason}' "$1"
}
# Reassemble a chunk stream as a client does: concatenate content deltas;
# a call's first delta gives index, id, type and name, later ones append
# argument pieces at that index.
reassemble() {
    sed -n 's/^data: //p' "$1" | grep -v '^\[DONE\]$' | jq -cs '
        [.[] | .choices[]?] as $ch
        | {content: ([$ch[] | .delta.content // empty] | join("")),
           tool_calls: (reduce ($ch[] | .delta.tool_calls // [] | .[]) as $t ([];
               .[$t.index] |= ((. // {id: $t.id, type: $t.type,
                                       function: {name: $t.function.name, arguments: ""}})
                               | .function.arguments += ($t.function.arguments // "")))),
           finish_reason: ([$ch[] | .finish_reason // empty] | last)}'
}
events() { sed -n 's/^data: //p' "$1"; } # the data lines of a stream

# ---- startup ---------------------------------------------------------------------------
start "$SCN" --requests "$TMP/req.log"
check "startup: one line on stdout" 1 "$(wc -l <"$TMP/out" | tr -d ' ')"
check "startup: port file matches the url" "http://127.0.0.1:$PORT" "$URL"
check "health" "200 ok" "$(timeout 5 curl -s -w '%{http_code} ' -o "$TMP/h" "$URL/health"; cat "$TMP/h")"
curl -s "$URL/v1/models" >"$TMP/models"
check "/v1/models: the scenario's models" '["gpt-x","gpt-judge"]' "$(jq -c '[.data[].id]' "$TMP/models")"
check "/v1/models: list of model objects" 'list model' "$(jq -r '.object + " " + .data[0].object' "$TMP/models")"
check "/models too" '"gpt-x"' "$(curl -s "$URL/models" | jq -c '.data[0].id')"

# ---- plain answer: shape ------------------------------------------------------------------
post "$(chat gpt-x "hello")" >"$TMP/plain"
check "plain: object" chat.completion "$(jq -r .object "$TMP/plain")"
check "plain: id" chatcmpl-mock- "$(jq -r '.id[:14]' "$TMP/plain")"
check "plain: created is a Unix time" true "$(jq '.created > 1600000000' "$TMP/plain")"
check "plain: model echoed" gpt-x "$(jq -r .model "$TMP/plain")"
check "plain: the default reply" '{"role":"assistant","content":"I can only talk about the weather."}' \
    "$(jq -c '.choices[0].message' "$TMP/plain")"
check "plain: finish_reason" stop "$(jq -r '.choices[0].finish_reason' "$TMP/plain")"
check "plain: usage counts words" '{"prompt_tokens":3,"completion_tokens":7,"total_tokens":10}' \
    "$(jq -c .usage "$TMP/plain")"
check "plain: content type" 1 "$(post "$(chat gpt-x hello)" -D - -o /dev/null | grep -ci '^content-type: application/json')"

# ---- tool call: plain and streamed ---------------------------------------------------------
post "$(chat gpt-x "What is the weather in Paris?")" >"$TMP/tool"
check "tool call: message" '{"content":"Let me check.","tool_calls":[{"id":"call_weather","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":\"celsius\"}"}}],"finish_reason":"tool_calls"}' \
    "$(message "$TMP/tool")"
post "$(chat gpt-x "What is the weather in Paris?" true)" -D "$TMP/hdr" >"$TMP/tool.sse"
check "stream: content type" 1 "$(grep -ci '^content-type: text/event-stream' "$TMP/hdr")"
check "stream: reassembles to the plain answer" "$(message "$TMP/tool")" "$(reassemble "$TMP/tool.sse")"
check "stream: ends with [DONE]" 'data: [DONE]' "$(grep -v '^$' "$TMP/tool.sse" | tail -n1)"
check "stream: every event a chunk" '["chat.completion.chunk"]' \
    "$(events "$TMP/tool.sse" | grep -v DONE | jq -cs '[.[].object] | unique')"
check "stream: first delta has the role" '{"role":"assistant","content":""}' \
    "$(events "$TMP/tool.sse" | head -n1 | jq -c '.choices[0].delta')"
check "stream: text in 3 deltas" 3 "$(events "$TMP/tool.sse" | grep -v DONE | jq -s '[.[].choices[0].delta.content // empty | select(. != "")] | length')"
check "stream: a call's first delta names it" '{"index":0,"id":"call_weather","type":"function","function":{"name":"get_weather","arguments":""}}' \
    "$(events "$TMP/tool.sse" | grep -v DONE | jq -c '.choices[0].delta.tool_calls[0] // empty' | head -n1)"
check "stream: later deltas carry index and argument pieces" '[["function","index"]]' \
    "$(events "$TMP/tool.sse" | grep -v DONE | jq -cs '[.[].choices[0].delta.tool_calls[0] // empty][1:] | map(keys) | unique')"
check "stream: arguments in 3 pieces" 3 \
    "$(events "$TMP/tool.sse" | grep -v DONE | jq -s '[.[].choices[0].delta.tool_calls[0] // empty][1:] | length')"
check "stream: no usage unless asked" 0 "$(events "$TMP/tool.sse" | grep -c '"usage"')"
post "$(chat gpt-x "weather?" | jq -c '. + {stream: false}')" >"$TMP/nostream"
check "stream: false gets the plain answer" chat.completion "$(jq -r .object "$TMP/nostream")"

# include_usage: a last chunk with usage and no choices, before [DONE]
post "$(chat gpt-x "hello" | jq -c '. + {stream: true, stream_options: {include_usage: true}}')" >"$TMP/usage.sse"
check "include_usage: usage chunk" '{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":7,"total_tokens":10}}' \
    "$(events "$TMP/usage.sse" | grep -v DONE | tail -n1 | jq -c '{choices, usage}')"
check "include_usage: usage null before it" true \
    "$(events "$TMP/usage.sse" | grep -v DONE | jq -s '.[:-1] | all(has("usage") and .usage == null)')"

# ---- after_tool: the tool result picks the next rule ----------------------------------------
AFTER=$(jq -cn '{model: "gpt-x", messages: [
    {role: "user", content: "What is the weather in Paris?"},
    {role: "assistant", content: null, tool_calls: [{id: "call_weather", type: "function",
        function: {name: "get_weather", arguments: "{\"city\":\"Paris\"}"}}]},
    {role: "tool", tool_call_id: "call_weather", content: "{\"sky\":\"clear\",\"t\":21}"}]}')
post "$AFTER" >"$TMP/after"
check "after_tool: the rule for the tool result" "It is sunny in Paris, 21 °C." "$(jq -r '.choices[0].message.content' "$TMP/after")"
post "$(jq -c '. + {stream: true}' <<<"$AFTER")" >"$TMP/after.sse"
check "after_tool: streamed, UTF-8 intact" "$(message "$TMP/after")" "$(reassemble "$TMP/after.sse")"
OTHER=$(jq -c '.messages[1].tool_calls[0].function.name = "get_time"' <<<"$AFTER")
check "after_tool: another tool's result is not taken" "I can only talk about the weather." \
    "$(post "$OTHER" | jq -r '.choices[0].message.content')"

# ---- model filter ---------------------------------------------------------------------------
check "model: the gpt-x rule is not for gpt-judge" '{"passed": true, "reason": "the answer names the weather"}' \
    "$(post "$(chat gpt-judge "weather?")" | jq -r '.choices[0].message.content')"
check "model: nor for a request without a model" "I can only talk about the weather." \
    "$(post '{"messages":[{"role":"user","content":"weather?"}]}' | jq -r '.choices[0].message.content')"

# ---- errors -----------------------------------------------------------------------------------
post "$(chat gpt-x flaky)" -D "$TMP/hdr" >"$TMP/got"
check "429: status" 429 "$(head -n1 "$TMP/hdr" | cut -d' ' -f2)"
check "429: Retry-After" 1 "$(grep -c '^Retry-After: 1' "$TMP/hdr")"
check "429: the API's error body" '{"type":"requests","code":"rate_limit_exceeded","param":null}' \
    "$(jq -c '.error | {type, code, param}' "$TMP/got")"
check "times: 1: then the next rule" recovered "$(post "$(chat gpt-x flaky)" | jq -r '.choices[0].message.content')"
check "times: 1: and it stays used up" recovered "$(post "$(chat gpt-x flaky)" | jq -r '.choices[0].message.content')"
post "$(chat gpt-x "bad key")" -D "$TMP/hdr" >"$TMP/got"
check "scripted error: status and body" '401 {"message":"Incorrect API key provided: sk-***.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}' \
    "$(head -n1 "$TMP/hdr" | cut -d' ' -f2) $(jq -c .error "$TMP/got")"
code=$(post '{"model": "gpt-x", "messages": [' -o "$TMP/got" -w '%{http_code}')
check "bad JSON: 400" 400 "$code"
check "bad JSON: invalid_request_error" invalid_request_error "$(jq -r .error.type "$TMP/got")"
code=$(post '{"model":"gpt-x"}' -o "$TMP/got" -w '%{http_code}')
check "no messages: 400 missing_required_parameter" "400 missing_required_parameter messages" \
    "$code $(jq -r '.error.code + " " + .error.param' "$TMP/got")"
check "unknown path: 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/embeddings" -d '{}')"
check "GET on chat: 405" 405 "$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/chat/completions")"

# ---- faults -------------------------------------------------------------------------------------
post "$(chat gpt-x drop true)" >"$TMP/cut.sse"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then ok "cut: a transfer error"; else bad "cut: curl exit status $rc"; fi
check "cut: only the first chunk, no [DONE]" '[{"role":"assistant","content":""}]' \
    "$(events "$TMP/cut.sse" | jq -cs '[.[].choices[0].delta]')"
post "$(chat gpt-x drop)" >"$TMP/cut.json"
rc=$?
check "cut: a plain answer gets no reply at all" "52 0" "$rc $(wc -c <"$TMP/cut.json" | tr -d ' ')"
post "$(chat gpt-x garbage true)" >"$TMP/got"
check "raw: bytes verbatim" 'data: {not json' "$(head -n1 "$TMP/got")"
check "body: verbatim for a plain request" '<html>502 Bad Gateway</html>' "$(post "$(chat gpt-x garbage)")"
check "args_text and scripted usage" '"{\"query\": \"shoes" 100 107' \
    "$(post "$(chat gpt-x "broken args")" | jq -r '[(.choices[0].message.tool_calls[0].function.arguments | tojson), .usage.prompt_tokens, .usage.total_tokens] | join(" ")')"
t0=$(date +%s%N)
post "$(chat gpt-x slow)" >/dev/null
ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$ms" -ge 250 ] && [ "$ms" -lt 2000 ]; then ok "delay_ms: answered after the delay"; else bad "delay_ms: took $ms ms"; fi

# ---- the request log ---------------------------------------------------------------------------
post "$(chat gpt-x hello)" -H 'X-Test: yes' >/dev/null
last=$(tail -n1 "$TMP/req.log")
check "requests: method and path" 'POST /v1/chat/completions' "$(jq -r '.method + " " + .path' <<<"$last")"
check "requests: lower-cased headers" 'yes Bearer sk-test' "$(jq -r '.headers["x-test"] + " " + .headers.authorization' <<<"$last")"
check "requests: parsed body" "$(chat gpt-x hello)" "$(jq -c .body <<<"$last")"
check "requests: bad JSON kept as text" 1 "$(jq -s '[.[] | select(.body == "{\"model\": \"gpt-x\", \"messages\": [")] | length' "$TMP/req.log")"
check "requests: every POST, one line each" 25 "$(jq -s '[.[] | select(.method == "POST")] | length' "$TMP/req.log")"
check "requests: other requests too, /health not" '["/models","/v1/chat/completions","/v1/models"]' \
    "$(jq -cs '[.[] | select(.method == "GET") | .path] | sort' "$TMP/req.log")"

# ---- stall, then SIGTERM while it is held open -----------------------------------------------------
post "$(chat gpt-x hang true)" >"$TMP/stall" &
CURL=$!
sleep 0.3
if kill -0 "$CURL" 2>/dev/null; then ok "stall: the connection is held open"; else bad "stall: the connection was closed"; fi
check "stall: two chunks, then nothing" 2 "$(events "$TMP/stall" | wc -l | tr -d ' ')"
stop "stall"
wait "$CURL" 2>/dev/null

# ---- no rule and no default: the built-in answer ------------------------------------------------------
printf 'rules:\n  - match: never\n    reply: {text: unused}\n' >"$TMP/nodefault.yaml"
start "$TMP/nodefault.yaml"
check "no rule matched: plain" "no rule matched: what now?" \
    "$(post "$(chat m "what now?")" | jq -r '.choices[0].message.content')"
post "$(chat m "what now?" true)" >"$TMP/got"
check "no rule matched: streamed" '"no rule matched: what now?"' "$(reassemble "$TMP/got" | jq -c .content)"
check "no rule matched: /v1/models lists mock-model" '["mock-model"]' "$(curl -s "$URL/v1/models" | jq -c '[.data[].id]')"
check "no rule matched: model echoed" m "$(post "$(chat m x)" | jq -r .model)"
stop "fallback"

# ---- bad scenario and bad flags: exit 2 with file:line:col -------------------------------------------
printf 'rules:\n  - match: x\n    reply:\n      text: a\n      tool_calls:\n        - {nme: f}\n' >"$TMP/bad.yaml"
timeout 5 "$MOCK" openai --scenario "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err"
check "bad scenario: exit status" 2 $?
check "bad scenario: message" "$TMP/bad.yaml:6:12: unknown key 'nme' in a tool call (did you mean 'name'?)" "$(cat "$TMP/err")"
check "bad scenario: nothing on stdout" "" "$(cat "$TMP/out")"
printf 'rules:\n  - status: 429\n    reply: {text: a}\n' >"$TMP/bad2.yaml"
timeout 5 "$MOCK" openai --scenario "$TMP/bad2.yaml" 2>"$TMP/err"
check "bad scenario: reply with an error status" "$TMP/bad2.yaml:3:5: a rule with status 429 sends an error body; 'reply' does not apply" "$(cat "$TMP/err")"
timeout 5 "$MOCK" openai --scenario "$SCN" --port 70000 >/dev/null 2>"$TMP/err"
check "bad flag: exit status" 2 $?
timeout 5 "$MOCK" openai --scenario "$TMP/missing.yaml" >/dev/null 2>&1
check "missing scenario: exit status" 2 $?

echo "mock-openai: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
