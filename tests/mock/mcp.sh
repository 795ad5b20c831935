#!/usr/bin/env bash
# End-to-end checks of `ananke-mock mcp`: on stdio, feed it JSON-RPC lines and
# read what it writes (answers, version negotiation, paging, every fault
# tool, the request log, exit statuses); over Streamable HTTP, drive it with
# curl (sessions, 202, JSON and SSE answers, 500, streams that never answer
# or never end, cut streams, 127.0.0.1 only, a prompt stop on SIGTERM).
# Prints one line per check and "mock-mcp: N passed, N failed"; exits
# non-zero on any failure.
#
#   ANANKE_BUILD=build-mocks tests/mock/mcp.sh
set -u
shopt -s lastpipe # stdio sets RC at the end of a pipe
suite=mock-mcp pass=0 fail=0
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
call() { # call ID TOOL [ARGS_JSON]: a tools/call line
    jq -cn --argjson id "$1" --arg t "$2" --argjson a "${3:-{\}}" \
        '{jsonrpc: "2.0", id: $id, method: "tools/call", params: {name: $t, arguments: $a}}'
}
stdio() { # stdio [FLAGS...] < lines: stdout in $TMP/out, stderr in $TMP/err, status in $RC
    timeout 10 "$MOCK" mcp "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
}
answer() { jq -c "select(.id == $1) | $2" "$TMP/out"; } # answer ID FILTER

# ---- stdio: the handshake and the lists -------------------------------------------------
printf '%s\n' "$INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"ping"}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/list"}' \
    '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"page2"}}' \
    '{"jsonrpc":"2.0","id":5,"method":"resources/list"}' \
    '{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"mock://greeting"}}' \
    '{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"mock://nope"}}' \
    '{"jsonrpc":"2.0","id":8,"method":"prompts/list"}' \
    '{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"greet","arguments":{"name":"Ada"}}}' \
    '{"jsonrpc":"2.0","id":10,"method":"bogus/method"}' \
    'this is not JSON' \
    "$(call 11 echo '{"message":"hi"}')" "$(call 12 add '{"a":40,"b":2}')" \
    "$(call 13 rpc_error)" "$(call 14 is_error)" "$(call 15 http_500)" "$(call 16 nope)" \
    "$(call 17 endless '{"message":"e"}')" | stdio --requests "$TMP/stdio.log"
same "stdio: exits 0 when stdin ends" 0 "$RC"
same "stdio: nothing on stderr" "" "$(cat "$TMP/err")"
same "stdio: initialize" '{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{}},"serverInfo":{"name":"ananke-mock"}}' \
    "$(answer 1 '.result | .serverInfo |= {name}')"
same "stdio: no answer to the notification" 17 "$(jq -s 'map(select(.id != null)) | length' "$TMP/out")"
same "stdio: ping" '{}' "$(answer 2 .result)"
same "stdio: tools/list page one" '{"names":["echo","ask","rpc_error"],"nextCursor":"page2"}' \
    "$(answer 3 '.result | {names: [.tools[].name], nextCursor}')"
same "stdio: tools/list page two, the last (the kit's fixtures, then its 2026-07-28 diagnostic tools, after the mock's tools)" '{"n":28,"last":"test_streaming_elicitation","nextCursor":null}' \
    "$(answer 4 '.result | {n: (.tools | length), last: .tools[-1].name, nextCursor}')"
same "stdio: resources/list" '"mock://greeting"' "$(answer 5 '.result.resources[0].uri')"
same "stdio: resources/read" '"hello from ananke-mock"' "$(answer 6 '.result.contents[0].text')"
same "stdio: resources/read of an unknown uri" -32002 "$(answer 7 .error.code)"
same "stdio: prompts/list" '"greet"' "$(answer 8 '.result.prompts[0].name')"
same "stdio: prompts/get" '"Say hello to Ada."' "$(answer 9 '.result.messages[0].content.text')"
same "stdio: unknown method" -32601 "$(answer 10 .error.code)"
same "stdio: a line that is not JSON" '{"id":null,"code":-32700}' \
    "$(jq -c 'select(.error.code == -32700) | {id, code: .error.code}' "$TMP/out")"
same "stdio: echo" '"echo: hi"' "$(answer 11 '.result.content[0].text')"
same "stdio: add" '"42"' "$(answer 12 '.result.content[0].text')"
same "stdio: rpc_error" '{"code":-32602,"message":"Invalid params: rpc_error always fails"}' "$(answer 13 .error)"
same "stdio: is_error" '{"isError":true,"text":"the tool failed on purpose"}' \
    "$(answer 14 '.result | {isError, text: .content[0].text}')"
same "stdio: http_500 is -32603 here" -32603 "$(answer 15 .error.code)"
same "stdio: an unknown tool is a tool error" '"unknown tool nope"' "$(answer 16 '.result.content[0].text')"
same "stdio: endless answers plainly" '"echo: e"' "$(answer 17 '.result.content[0].text')"
same "stdio: --requests logs every line as read" 19 "$(wc -l <"$TMP/stdio.log" | tr -d ' ')"
same "stdio: the log keeps the bad line" "this is not JSON" "$(sed -n 12p "$TMP/stdio.log")"

# ---- stdio: version negotiation ----------------------------------------------------------
for v in 2025-06-18 2025-03-26 2024-11-05; do
    jq -cn --arg v "$v" '{jsonrpc:"2.0",id:1,method:"initialize",params:{protocolVersion:$v}}' | stdio
    same "negotiation: $v asked, $v agreed" "\"$v\"" "$(answer 1 .result.protocolVersion)"
done
echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}' | stdio
same "negotiation: an unknown version gets the latest" '"2025-11-25"' "$(answer 1 .result.protocolVersion)"
echo "$INIT" | stdio --version 1999-01-01
same "negotiation: --version forces the answer" '"1999-01-01"' "$(answer 1 .result.protocolVersion)"

# ---- stdio: the fault tools -----------------------------------------------------------------
printf '%s\n' "$INIT" "$(call 2 garbage)" "$(call 3 echo '{"message":"after"}')" | stdio
same "garbage: a line that is not JSON" '{"jsonrpc":"2.0","id":2,"result":{' "$(sed -n 2p "$TMP/out")"
same "garbage: then it still answers" '"echo: after"' "$(sed -n 3p "$TMP/out" | jq '.result.content[0].text')"
printf '%s\n' "$INIT" "$(call 2 hang)" "$(call 3 echo)" | stdio
same "hang: no answer to the call" '[1,3]' "$(jq -cs 'map(.id)' "$TMP/out")"
printf '%s\n' "$INIT" "$(call 7 wrong_id '{"message":"x"}')" | stdio
same "wrong_id: the answer under another id" '[1,1007]' "$(jq -cs 'map(.id)' "$TMP/out")"
printf '%s\n' "$INIT" "$(call 2 huge)" | stdio
same "huge: a frame over 32 MiB" true "$(sed -n 2p "$TMP/out" | wc -c | awk '{print ($1 > 33554432)}' | sed 's/1/true/')"
same "huge: still JSON" 2 "$(sed -n 2p "$TMP/out" | jq .id)"
printf '%s\n' "$INIT" "$(call 2 die)" "$(call 3 echo)" | stdio
same "die: exit status 3" 3 "$RC"
same "die: says so on stderr" "ananke-mock mcp: dying mid-call on purpose" "$(cat "$TMP/err")"
same "die: nothing after the handshake" 1 "$(wc -l <"$TMP/out" | tr -d ' ')"
printf '%s\n' "$INIT" "$(call 2 stderr_flood '{"message":"loud"}')" | stdio
same "stderr_flood: 8 MiB on stderr" 1 "$(awk -v n="$(wc -c <"$TMP/err")" 'BEGIN{print (n >= 8388608)}')"
same "stderr_flood: then the answer" '"echo: loud"' "$(answer 2 '.result.content[0].text')"
printf '%s\n' "$INIT" "$(call 2 echo '{"message":"m"}')" | stdio --fault is_error
same "--fault: every call behaves as that tool" '{"isError":true,"text":"the tool failed on purpose"}' \
    "$(answer 2 '.result | {isError, text: .content[0].text}')"

# close_stdout: stdout ends while the process lives on until stdin ends
mkfifo "$TMP/in"
"$MOCK" mcp <"$TMP/in" >"$TMP/out" 2>"$TMP/err" &
PID=$!
exec 3>"$TMP/in"
printf '%s\n' "$INIT" "$(call 2 close_stdout)" >&3
sleep 0.3
same "close_stdout: only the handshake was written" 1 "$(wc -l <"$TMP/out" | tr -d ' ')"
if kill -0 "$PID" 2>/dev/null; then ok "close_stdout: still running"; else bad "close_stdout: exited"; fi
if [ -z "$(find "/proc/$PID/fd" -lname "$(readlink -f "$TMP/out")" 2>/dev/null)" ]; then
    ok "close_stdout: its stdout is closed"
else
    bad "close_stdout: stdout still open"
fi
exec 3>&-
wait "$PID"
same "close_stdout: exits 0 when stdin ends" 0 "$?"
PID=

# the ask tool: the server's own requests, answered by the client
mkfifo "$TMP/ask.in"
"$MOCK" mcp <"$TMP/ask.in" >"$TMP/out" 2>"$TMP/err" &
PID=$!
exec 3>"$TMP/ask.in"
printf '%s\n' "$INIT" "$(call 2 ask)" >&3
for _ in $(seq 50); do [ "$(wc -l <"$TMP/out")" -ge 4 ] && break; sleep 0.05; done
same "ask: ping, roots/list, sampling asked" '["ping","roots/list","sampling/createMessage"]' \
    "$(jq -cs 'map(select(.method) | .method)' "$TMP/out")"
jq -c 'select(.method) | {jsonrpc: "2.0", id} + (if .method == "sampling/createMessage"
    then {error: {code: -32601, message: "no"}} elif .method == "ping" then {result: {}}
    else {result: {roots: []}} end)' "$TMP/out" >&3
exec 3>&-
wait "$PID"
PID=
same "ask: the answer says what came back" '"ping: {}; roots: {\"roots\":[]}; sampling: error -32601"' \
    "$(answer 2 '.result.content[0].text')"

# ---- flags -------------------------------------------------------------------------------------
"$MOCK" mcp --fault nope </dev/null >/dev/null 2>"$TMP/err"
same "flags: an unknown tool for --fault" "2 ananke-mock mcp: unknown tool or fault 'nope' (see ananke-mock mcp --help)" \
    "$? $(head -n1 "$TMP/err")"
"$MOCK" mcp --port x </dev/null >/dev/null 2>"$TMP/err"
same "flags: a bad port" "2 ananke-mock mcp: --port needs a number, not 'x'" "$? $(head -n1 "$TMP/err")"
same "help: lists every tool" 31 "$("$MOCK" mcp --help | sed -n '/^tools/,/^$/p' | grep -c '^  [a-z_]')"

# ---- Streamable HTTP ---------------------------------------------------------------------------
post() { # post BODY [CURL ARGS...]: the body on stdout, headers in $TMP/hdr
    timeout 10 curl -sN -D "$TMP/hdr" -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' --data-binary "$1" "${@:2}" "$URL/mcp"
}
status() { head -n1 "$TMP/hdr" | awk '{print $2}'; }
header() { grep -i "^$1:" "$TMP/hdr" | head -n1 | sed 's/^[^:]*: *//' | tr -d '\r'; }

mock_start http mcp --http --requests "$TMP/http.log"
same "http: one line on stdout" 1 "$(wc -l <"$TMP/http.out" | tr -d ' ')"
same "http: port file matches the url" "http://127.0.0.1:$PORT" "$URL"
if command -v ss >/dev/null; then
    same "http: listens on 127.0.0.1 only" "127.0.0.1:$PORT" "$(ss -ltnH "sport = :$PORT" | awk '{print $4}' | sort -u)"
fi
post "$INIT" >"$TMP/body"
SID=$(header mcp-session-id)
same "http: initialize is 200 JSON" "200 application/json" "$(status) $(header content-type)"
same "http: initialize mints a session" mock-session- "${SID%%[0-9]*}"
same "http: initialize answers" '"2025-11-25"' "$(jq .result.protocolVersion "$TMP/body")"
S=(-H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 2025-11-25')
post '{"jsonrpc":"2.0","method":"notifications/initialized"}' "${S[@]}" >/dev/null
same "http: a notification gets 202" 202 "$(status)"
post "$(call 2 echo '{"message":"web"}')" >"$TMP/body"
same "http: no session header is 400" "400 -32000" "$(status) $(jq .error.code "$TMP/body")"
post "$(call 2 echo '{"message":"web"}')" -H 'Mcp-Session-Id: mock-session-999' >"$TMP/body"
same "http: an unknown session is 404" "404 -32001" "$(status) $(jq .error.code "$TMP/body")"
post "$(call 2 echo '{"message":"web"}')" -H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 1999-01-01' >/dev/null
same "http: an unknown MCP-Protocol-Version is 400" 400 "$(status)"
post "$(call 2 echo '{"message":"web"}')" "${S[@]}" >"$TMP/body"
same "http: a call answered in JSON" '200 "echo: web"' "$(status) $(jq '.result.content[0].text' "$TMP/body")"
post 'not json' "${S[@]}" >"$TMP/body"
same "http: a body that is not JSON is 400 -32700" "400 -32700" "$(status) $(jq .error.code "$TMP/body")"
post "$(call 3 http_500)" "${S[@]}" >"$TMP/body"
same "http: http_500" "500 internal server error (on purpose)" "$(status) $(cat "$TMP/body")"
post "$(call 4 garbage)" "${S[@]}" >"$TMP/body"
same "http: garbage is a JSON body that is not JSON" '200 {"jsonrpc":"2.0","id":4,"result":{' "$(status) $(cat "$TMP/body")"
post "$(call 5 huge)" "${S[@]}" >"$TMP/body"
same "http: huge is over 32 MiB" 1 "$(awk -v n="$(wc -c <"$TMP/body")" 'BEGIN{print (n > 33554432)}')"
post "$(call 6 hang)" "${S[@]}" --max-time 1 >"$TMP/body"
same "hang: the stream stays open without an answer (curl timed out)" 28 "$?"
same "hang: a priming event, then a log notification" '["","notifications/message"]' \
    "$(sed -n 's/^data: *//p' "$TMP/body" | jq -Rcs 'split("\n") | map(select(. != "")) as $d | [""] + ($d | map(fromjson | .method))')"
post "$(call 7 endless '{"message":"on"}')" "${S[@]}" --max-time 1 >"$TMP/body"
same "endless: the stream stays open after the answer (curl timed out)" 28 "$?"
same "endless: the answer is on it" '"echo: on"' "$(sed -n 's/^data: {/{/p' "$TMP/body" | jq '.result.content[0].text')"
post "$(call 8 die)" "${S[@]}" >"$TMP/body"
same "die: the stream is cut (curl: transfer closed)" 18 "$?"
post "$(call 9 wrong_id)" "${S[@]}" >"$TMP/body"
same "http: wrong_id" 1009 "$(jq .id "$TMP/body")"
timeout 5 curl -s -o /dev/null -w '%{http_code}' -H "Mcp-Session-Id: $SID" "$URL/mcp" >"$TMP/code"
same "http: GET (no standalone stream) is 405" 405 "$(cat "$TMP/code")"
timeout 5 curl -s -o /dev/null -w '%{http_code}' -X DELETE -H "Mcp-Session-Id: $SID" "$URL/mcp" >"$TMP/code"
same "http: DELETE ends the session" 200 "$(cat "$TMP/code")"
post "$(call 10 echo)" "${S[@]}" >/dev/null
same "http: an ended session is 404" 404 "$(status)"
same "http: --requests logs method, path, headers and body" '{"method":"POST","path":"/mcp","sid":null,"body":"initialize"}' \
    "$(head -n1 "$TMP/http.log" | jq -c '{method, path, sid: .headers["mcp-session-id"], body: .body.method}')"
# a stream left hanging must not hold up SIGTERM
post "$(call 11 hang)" "${S[@]}" --max-time 5 >/dev/null &
sleep 0.3
mock_stop http "$PID"
wait

mock_start sse mcp --http --sse
post "$INIT" >"$TMP/body"
same "--sse: answers are event streams" "200 text/event-stream" "$(status) $(header content-type)"
same "--sse: the answer after a priming event" '"2025-11-25"' \
    "$(sed -n 's/^data: {/{/p' "$TMP/body" | jq .result.protocolVersion)"
mock_stop --sse "$PID"

# ---- 2026-07-28 subscriptions/listen: --listen-ms ends the stream with the listen's result ----
"$MOCK" mcp --listen-ms 0 </dev/null >/dev/null 2>"$TMP/err"
same "flags: --listen-ms 0 is refused" 2 "$?"
mock_start listen mcp --http --listen-ms 400
M='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
t0=$(date +%s%N)
post '{"jsonrpc":"2.0","id":"l1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},'"$M"'}}' \
    -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: subscriptions/listen' >"$TMP/body"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
same "listen: acknowledged, then the listen's result once --listen-ms passed" \
    '["notifications/subscriptions/acknowledged","sub-1",null] ["l1","complete"]' \
    "$(sed -n 's/^data: //p' "$TMP/body" | jq -sc '[.[0].method, .[0].params._meta["io.modelcontextprotocol/subscriptionId"], .[0].id]') $(sed -n 's/^data: //p' "$TMP/body" | jq -sc '[.[-1].id, .[-1].result.resultType]')"
[ "$ms" -ge 350 ] && [ "$ms" -lt 3000 ] && ok "listen: the stream ended after --listen-ms 400 (${ms} ms)" ||
    bad "listen: the stream took ${ms} ms"
post '{"jsonrpc":"2.0","id":"l2","method":"subscriptions/listen","params":{'"$M"'}}' \
    -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: subscriptions/listen' >"$TMP/body"
same "listen: no 'notifications' object is 400 -32602" "400 -32602" "$(status) $(jq .error.code "$TMP/body")"
mock_stop listen "$PID"

# shellcheck source-path=SCRIPTDIR source=mcp-ask.sh
. "$(dirname "$0")/mcp-ask.sh"

finish
