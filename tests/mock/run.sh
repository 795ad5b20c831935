#!/usr/bin/env bash
# End-to-end checks of `ananke-mock agui`: start it on a free port with the
# scenarios in this directory, drive it with curl, compare exact bytes and
# statuses. Prints "N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build-mock tests/mock/run.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${ANANKE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
MOCK=$BUILD/ananke-mock
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

ok() { PASS=$((PASS + 1)); }
bad() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $*"
}
# check NAME EXPECTED ACTUAL
check() {
    if [ "$2" = "$3" ]; then ok; else bad "$1: expected [$2], got [$3]"; fi
}
# check_bytes NAME EXPECTED_FILE ACTUAL_FILE
check_bytes() {
    if cmp -s "$2" "$3"; then ok; else
        bad "$1: bytes differ"
        diff <(od -c "$2") <(od -c "$3") | head -20
    fi
}

if [ ! -x "$MOCK" ]; then
    echo "no executable at $MOCK (set ANANKE_BUILD)"
    echo "0 passed, 1 failed"
    exit 1
fi

# start SCENARIO [EXTRA FLAGS...]: sets PID and URL; waits for the port file.
start() {
    local scenario=$1
    shift
    rm -f "$TMP/port" "$TMP/out" "$TMP/err"
    "$MOCK" agui --scenario "$scenario" --port 0 --port-file "$TMP/port" "$@" \
        >"$TMP/out" 2>"$TMP/err" &
    PID=$!
    for _ in $(seq 100); do
        [ -s "$TMP/port" ] && [ -s "$TMP/out" ] && break
        sleep 0.05
    done
    URL=$(head -n1 "$TMP/out")
    PORT=$(cat "$TMP/port" 2>/dev/null)
}

# stop: SIGTERM, expect a prompt exit with status 0.
stop() {
    local name=$1 t0 t1 rc
    t0=$(date +%s%N)
    kill -TERM "$PID"
    wait "$PID"
    rc=$?
    t1=$(date +%s%N)
    PID=
    check "$name: exit status after SIGTERM" 0 "$rc"
    if [ $(((t1 - t0) / 1000000)) -lt 2000 ]; then ok; else
        bad "$name: took $(((t1 - t0) / 1000000)) ms to stop"
    fi
}

body() { # body USER_TEXT -> a RunAgentInput with one user message
    printf '{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"%s"}],"tools":[],"context":[],"forwardedProps":{}}' "$1"
}
post() { # post PATH BODY [CURL ARGS...] -> stream on stdout, curl's status in $?
    local path=$1 data=$2
    shift 2
    timeout 10 curl -sN -H 'Content-Type: application/json' --data-binary "$data" "$@" "$URL$path"
}
status_of() { # status_of PATH BODY [CURL ARGS...] -> HTTP status
    local path=$1 data=$2
    shift 2
    timeout 10 curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
        --data-binary "$data" "$@" "$URL$path"
}
ev() { printf 'data: %s\n\n' "$1"; }
START='{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}'
FINISH='{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}'
text_events() { # text_events ID TEXT
    ev "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"$1\",\"role\":\"assistant\"}"
    ev "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"$1\",\"delta\":\"$2\"}"
    ev "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"$1\"}"
}

# ---- startup ---------------------------------------------------------------
start "$HERE/basic.yaml" --requests "$TMP/req.log"
check "startup: one line on stdout" "1" "$(wc -l <"$TMP/out" | tr -d ' ')"
case $URL in http://127.0.0.1:[0-9]*) ok ;; *) bad "startup: url line is [$URL]" ;; esac
check "startup: port file matches url" "http://127.0.0.1:$PORT" "$URL"
check "health" "200 ok" "$(timeout 5 curl -s -w '%{http_code} ' -o "$TMP/h" "$URL/health"; cat "$TMP/h")"

# ---- text --------------------------------------------------------------------
{ ev "$START"; text_events m1 "Hi there"; ev "$FINISH"; } >"$TMP/exp"
post /agent "$(body hello)" >"$TMP/got"
check_bytes "text" "$TMP/exp" "$TMP/got"

# ---- tool with result --------------------------------------------------------
{
    ev "$START"
    text_events m1 "Sure, checking."
    ev '{"type":"TOOL_CALL_START","toolCallId":"call_1","toolCallName":"validate_cart"}'
    ev '{"type":"TOOL_CALL_ARGS","toolCallId":"call_1","delta":"{\"cart_id\":\"c1\"}"}'
    ev '{"type":"TOOL_CALL_END","toolCallId":"call_1"}'
    ev '{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"call_1","content":"{\"ok\":true}","role":"tool"}'
    ev "$FINISH"
} >"$TMP/exp"
post /agent "$(body "please checkout")" >"$TMP/got"
check_bytes "tool with result" "$TMP/exp" "$TMP/got"

# ---- framing crlf, data: without a space ----------------------------------------
{
    printf 'data:%s\r\n\r\n' "$START"
    printf 'data:%s\r\n\r\n' '{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}'
    printf 'data:%s\r\n\r\n' '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"}'
    printf 'data:%s\r\n\r\n' '{"type":"TEXT_MESSAGE_END","messageId":"m1"}'
    printf 'data:%s\r\n\r\n' "$FINISH"
} >"$TMP/exp"
post /agent "$(body crlf)" >"$TMP/got"
check_bytes "framing crlf" "$TMP/exp" "$TMP/got"

# ---- chunks, comment, raw ------------------------------------------------------
{
    ev "$START"
    ev '{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}'
    ev '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"ab"}'
    ev '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"cd"}'
    ev '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"ef"}'
    ev '{"type":"TEXT_MESSAGE_END","messageId":"m1"}'
    printf ': keep-alive\n\n'
    printf 'data: {not json\n\n'
    ev "$FINISH"
} >"$TMP/exp"
post /agent "$(body chunks)" >"$TMP/got"
check_bytes "chunks, comment, raw" "$TMP/exp" "$TMP/got"

# ---- non-2xx -------------------------------------------------------------------
post /agent "$(body overloaded)" -D "$TMP/hdr" >"$TMP/got"
check "non-2xx: status" "503" "$(head -n1 "$TMP/hdr" | cut -d' ' -f2)"
check "non-2xx: default body" '{"error":"scripted status 503"}' "$(cat "$TMP/got")"
check "non-2xx: scripted header" "1" "$(grep -c '^Retry-After: 2' "$TMP/hdr")"
check "non-2xx: content type" "1" "$(grep -ci '^content-type: application/json' "$TMP/hdr")"
post /agent "$(body teapot)" -D "$TMP/hdr" >"$TMP/got"
check "non-2xx: scripted body" "short and stout" "$(cat "$TMP/got")"
check "non-2xx: scripted content type" "1" "$(grep -ci '^content-type: text/plain' "$TMP/hdr")"

# ---- cut -----------------------------------------------------------------------
{ ev "$START"; text_events m1 partial; } >"$TMP/exp"
post /agent "$(body cut)" >"$TMP/got"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then ok; else bad "cut: curl exit status $rc, expected a transfer error"; fi
check_bytes "cut: bytes before the cut" "$TMP/exp" "$TMP/got"

# ---- run_error -----------------------------------------------------------------
{ ev "$START"; ev '{"type":"RUN_ERROR","message":"model overloaded","code":"overloaded"}'; } >"$TMP/exp"
post /agent "$(body fail)" >"$TMP/got"
check "run_error: curl status" 0 $?
check_bytes "run_error: no RUN_FINISHED" "$TMP/exp" "$TMP/got"

# ---- times ---------------------------------------------------------------------
check "times: first answer" 500 "$(status_of /agent "$(body flaky)")"
{ ev "$START"; text_events m1 recovered; ev "$FINISH"; } >"$TMP/exp"
post /agent "$(body flaky)" >"$TMP/got"
check_bytes "times: then the next rule" "$TMP/exp" "$TMP/got"
post /agent "$(body flaky)" >"$TMP/got"
check_bytes "times: and it stays used up" "$TMP/exp" "$TMP/got"

# ---- connect rule ----------------------------------------------------------------
{
    ev '{"type":"RUN_STARTED","threadId":"t","runId":"replay"}'
    ev '{"type":"STATE_SNAPSHOT","snapshot":{"a":1}}'
    ev '{"type":"RUN_FINISHED","threadId":"t","runId":"replay"}'
} >"$TMP/exp"
post /agent '{"threadId":"t1","runId":"r2","messages":[],"tools":[],"context":[],"forwardedProps":{}}' >"$TMP/got"
check_bytes "connect: no messages" "$TMP/exp" "$TMP/got"
post /agent '{"threadId":"t1","runId":"r3","messages":[{"id":"u","role":"user","content":"hello"},{"id":"a","role":"assistant","content":"Hi"}]}' >"$TMP/got"
check_bytes "connect: last message is the assistant's" "$TMP/exp" "$TMP/got"

# ---- path, default -------------------------------------------------------------
{ ev "$START"; text_events m1 "other path"; ev "$FINISH"; } >"$TMP/exp"
post /other "$(body where)" >"$TMP/got"
check_bytes "path: rule for /other" "$TMP/exp" "$TMP/got"
{ ev "$START"; text_events m1 "default answer"; ev "$FINISH"; } >"$TMP/exp"
post /agent "$(body where)" >"$TMP/got"
check_bytes "default: rule for another path" "$TMP/exp" "$TMP/got"

# ---- bad requests ----------------------------------------------------------------
check "invalid JSON body" 400 "$(status_of /agent '{"threadId":')"
check "GET on a run path" 405 "$(timeout 5 curl -s -o /dev/null -w '%{http_code}' "$URL/agent")"

# ---- delay: events leave as they are produced, not at the end ------------------
post /agent "$(body slow)" | while IFS= read -r line; do
    case $line in data:*) echo "$(($(date +%s%N) / 1000000)) $line" ;; esac
done >"$TMP/timed"
t_one=$(grep '"delta":"one"' "$TMP/timed" | cut -d' ' -f1)
t_two=$(grep '"delta":"two"' "$TMP/timed" | cut -d' ' -f1)
gap=$((t_two - t_one))
if [ "$gap" -ge 250 ] && [ "$gap" -lt 1500 ]; then ok; else bad "delay_ms: gap between events was $gap ms, expected ~300"; fi

# ---- --requests log --------------------------------------------------------------
post /agent "$(body hello)" -H 'X-Test: yes' -H 'Authorization: Bearer k' >/dev/null
last=$(tail -n1 "$TMP/req.log")
check "requests: method" 1 "$(grep -c '"method":"POST"' <<<"$last")"
check "requests: path" 1 "$(grep -c '"path":"/agent"' <<<"$last")"
check "requests: lower-cased header" 1 "$(grep -c '"x-test":"yes"' <<<"$last")"
check "requests: authorization kept" 1 "$(grep -c '"authorization":"Bearer k"' <<<"$last")"
check "requests: parsed body" 1 "$(grep -c '"body":{"threadId":"t1","runId":"r1","messages":\[{"id":"u1","role":"user","content":"hello"}\]' <<<"$last")"
check "requests: invalid JSON kept raw" 1 "$(grep -c '"body":"{\\"threadId\\":"' "$TMP/req.log")"
check "requests: one line per request, health excluded" 19 "$(wc -l <"$TMP/req.log" | tr -d ' ')"

# ---- stall, then SIGTERM while it is held open -----------------------------------
post /agent "$(body stall)" >"$TMP/stall" &
CURL=$!
sleep 0.5
if kill -0 "$CURL" 2>/dev/null; then ok; else bad "stall: the connection was not held open"; fi
check "stall: text sent before the stall" 1 "$(grep -c '"delta":"waiting"' "$TMP/stall")"
stop "stall"
wait "$CURL" 2>/dev/null
check "stall: stream has no RUN_FINISHED" 0 "$(grep -c RUN_FINISHED "$TMP/stall")"

# ---- built-in answer without a default, 413 ----------------------------------------
start "$HERE/fallback.yaml" --max-body 100
{
    ev "$START"
    ev '{"type":"TEXT_MESSAGE_START","messageId":"msg_1_1","role":"assistant"}'
    ev '{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_1_1","delta":"no rule matched: hi"}'
    ev '{"type":"TEXT_MESSAGE_END","messageId":"msg_1_1"}'
    ev "$FINISH"
} >"$TMP/exp"
post / '{"threadId":"t1","runId":"r1","messages":[{"role":"user","content":"hi"}]}' >"$TMP/got"
check_bytes "no rule matched" "$TMP/exp" "$TMP/got"
check "body over --max-body" 413 "$(status_of /agent "$(body "a message long enough to cross the hundred byte limit")")"
check "chunked body over --max-body" 413 "$(status_of /agent "$(body "a message long enough to cross the hundred byte limit")" -H 'Transfer-Encoding: chunked')"
stop "fallback"

# ---- bad scenario and bad flags: exit 2 with file:line:col ---------------------------
timeout 5 "$MOCK" agui --scenario "$HERE/bad.yaml" >"$TMP/out" 2>"$TMP/err"
check "bad scenario: exit status" 2 $?
check "bad scenario: message" "$HERE/bad.yaml:3:5: unknown key 'mach' in rule (did you mean 'match'?)" "$(cat "$TMP/err")"
check "bad scenario: nothing on stdout" "" "$(cat "$TMP/out")"
timeout 5 "$MOCK" agui --scenario "$HERE/basic.yaml" --port 70000 >/dev/null 2>"$TMP/err"
check "bad flag: exit status" 2 $?
timeout 5 "$MOCK" agui --scenario "$TMP/missing.yaml" >/dev/null 2>"$TMP/err"
check "missing scenario: exit status" 2 $?

# ---- SIGINT is a clean stop too ---------------------------------------------------
start "$HERE/basic.yaml"
kill -INT "$PID"
wait "$PID"
check "SIGINT: exit status" 0 $?
PID=

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
