#!/usr/bin/env bash
# End-to-end checks of `ananke-mock acp`: drive the built binary through a
# bash coprocess (ACP over stdin/stdout, one JSON object per line), answer its
# requests to the client, and check what a client would observe. Each fault
# switch is run through the same probe and must break exactly its one rule.
# Prints "mock-acp: N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build-macp tests/mock/acp.sh
set -u
trap '' PIPE

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${ANANKE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
MOCK=$BUILD/ananke-mock
TMP=$(mktemp -d)
PASS=0
FAIL=0
APID=

cleanup() {
    [ -n "$APID" ] && kill "$APID" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

ok() { PASS=$((PASS + 1)); }
bad() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $*"
}
check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else bad "$1: expected [$2], got [$3]"; fi
}

if [ ! -x "$MOCK" ] || ! command -v jq >/dev/null; then
    echo "no executable at $MOCK (set ANANKE_BUILD), or no jq"
    echo "mock-acp: 0 passed, 1 failed"
    exit 1
fi

mkdir -p "$TMP/ws/notes"
WS=$TMP/ws
printf 'hello from the sandbox' >"$WS/greeting.txt"

# ---- the coprocess ------------------------------------------------------------
start() { # start [FLAGS...]: a fresh agent; stderr goes to $TMP/err
    : >"$TMP/calls"
    : >"$TMP/seen"
    coproc M { exec timeout 60 "$MOCK" acp "$@" 2>"$TMP/err"; }
    APID=$! # not M_PID: bash unsets that when the coprocess ends
    IN=${M[1]}
    OUT=${M[0]}
}
send() { printf '%s\n' "$1" >&"$IN"; }
finish() { # close stdin, wait; sets RC
    eval "exec $IN>&-"
    wait "$APID" 2>/dev/null
    RC=$?
    APID=
}
# reply_to LINE: answer one request of the agent like a well-behaved client;
# logs "method path-or-terminal" to $TMP/calls
PERMIT=allow
reply_to() {
    local line=$1 id method arg
    IFS=$'\t' read -r id method arg < <(jq -r '[(.id | tojson), .method,
        (.params.path // .params.terminalId // .params.command // "")] | @tsv' <<<"$line")
    echo "$method $arg" >>"$TMP/calls"
    case $method in
    fs/read_text_file) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"content\":\"hello from the sandbox\"}}" ;;
    fs/write_text_file) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":null}" ;;
    terminal/create) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"terminalId\":\"term_1\"}}" ;;
    terminal/wait_for_exit) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"exitCode\":0,\"signal\":null}}" ;;
    terminal/output) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"output\":\"hi\\n\",\"truncated\":false,\"exitStatus\":{\"exitCode\":0}}}" ;;
    terminal/release) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{}}" ;;
    session/request_permission)
        if [ "$PERMIT" = none ]; then return; fi
        send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"$PERMIT\"}}}" ;;
    *) send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}" ;;
    esac
}
# until_reply ID [SECONDS]: read lines (answering the agent's requests) until
# the response to ID; sets GOT; every line read is appended to $TMP/seen.
# Returns 1 on timeout or EOF; a line that is not JSON sets GARBAGE=1.
until_reply() {
    local want=$1 t=${2:-5} line kind
    GOT=
    while IFS= read -r -t "$t" line 2>/dev/null <&"$OUT"; do
        printf '%s\n' "$line" >>"$TMP/seen"
        kind=$(jq -r --argjson w "$want" 'if has("method") and has("id") then "request"
            elif (has("method") | not) and .id == $w then "reply" else "other" end' \
            2>/dev/null <<<"$line") || kind=garbage
        case $kind in
        garbage) GARBAGE=1 ;;
        request) reply_to "$line" ;;
        reply)
            GOT=$line
            return 0
            ;;
        esac
    done
    return 1
}
# until_request METHOD: read lines until the agent sends that request (not
# answered); sets GOT.
until_request() {
    local line
    GOT=
    while IFS= read -r -t 5 line 2>/dev/null <&"$OUT"; do
        printf '%s\n' "$line" >>"$TMP/seen"
        if [ "$(jq -r '.method // ""' <<<"$line" 2>/dev/null)" = "$1" ] && jq -e 'has("id")' >/dev/null <<<"$line"; then
            GOT=$line
            return 0
        fi
    done
    return 1
}
collect() { # read what comes within 0.3 s into $TMP/seen
    local line
    while IFS= read -r -t 0.3 line 2>/dev/null <&"$OUT"; do printf '%s\n' "$line" >>"$TMP/seen"; done
}
field() { jq -c "$1" <<<"$GOT"; }
CAPS_ALL='{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}'
CAPS_NONE='{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}'
init() { # init ID CAPS
    send "{\"jsonrpc\":\"2.0\",\"id\":$1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1,\"clientCapabilities\":$2,\"clientInfo\":{\"name\":\"acp.sh\",\"version\":\"0\"}}}"
}
new_session() { # new_session ID -> SID
    send "{\"jsonrpc\":\"2.0\",\"id\":$1,\"method\":\"session/new\",\"params\":{\"cwd\":\"$WS\",\"mcpServers\":[]}}"
    until_reply "$1"
    SID=$(jq -r '.result.sessionId // "sess_1"' <<<"$GOT")
}
prompt() { # prompt ID TEXT
    send "$(jq -cn --argjson id "$1" --arg s "$SID" --arg t "$2" \
        '{jsonrpc:"2.0",id:$id,method:"session/prompt",params:{sessionId:$s,prompt:[{type:"text",text:$t}]}}')"
}
cancel() { send "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\":{\"sessionId\":\"$SID\"}}"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# ---- the probe: one conversation that observes every rule a fault can break ----
# probe [--fault NAME]: prints the names of the rules the agent broke.
probe() {
    local broken=() t0 t1
    GARBAGE=0
    t0=$(now_ms)
    start "$@"
    init 0 "$CAPS_NONE"
    until_reply 0 || { echo "noinit"; finish; return; }
    t1=$(now_ms)
    [ $((t1 - t0)) -ge 450 ] && broken+=(slow)
    [ "$(field '.result.protocolVersion')" = 1 ] || broken+=(version)
    send '{"jsonrpc":"2.0","id":1,"method":"x/unknown","params":{}}'
    until_reply 1
    [ "$(field '.error.code')" = -32601 ] || broken+=(unknown)
    new_session 2
    [ "$(field '.result.sessionId | type')" = '"string"' ] || broken+=(sessionid)
    prompt 3 "Read greeting.txt and tell me its contents."
    if ! until_reply 3; then
        broken+=(exit)
        finish
        [ "$GARBAGE" = 1 ] && broken+=(garbage)
        echo "${broken[*]}"
        return
    fi
    grep -q '^fs/' "$TMP/calls" && broken+=(fs-cap)
    prompt 4 'Run `echo hi`'
    until_reply 4
    grep -q '^terminal/' "$TMP/calls" && broken+=(terminal-cap)
    send "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"$SID\",\"prompt\":{\"oops\":true}}}"
    until_reply 5
    [ "$(field '.error.code')" = -32602 ] || broken+=(params)
    prompt 6 "slow"
    sleep 0.3
    cancel
    until_reply 6
    [ "$(field '.result.stopReason')" = '"cancelled"' ] || broken+=(cancel)
    init 7 "$CAPS_ALL"
    until_reply 7
    : >"$TMP/calls"
    prompt 8 "read greeting.txt"
    until_reply 8
    grep -q "^fs/read_text_file $WS/greeting.txt\$" "$TMP/calls" || broken+=(relative)
    prompt 9 'run `echo hi`'
    until_reply 9
    grep -q '^terminal/release term_1$' "$TMP/calls" || broken+=(leak)
    finish
    [ "$RC" = 0 ] || broken+=(exit)
    [ "$GARBAGE" = 1 ] && broken+=(garbage)
    [ "$(wc -c <"$TMP/err")" -gt 65536 ] && broken+=(flood)
    echo "${broken[*]}"
}

# The probes are independent (each its own agent and, below, its own $TMP):
# two run at a time (in the background), their verdicts are checked in this
# order. probe_to N [--fault NAME]: the probe's output in $TMP/probe-N.out
probe_to() {
    local n=$1
    shift
    local TMP=$TMP/probe-$n # the probe and its helpers see this one
    mkdir -p "$TMP"
    probe "$@" >"$TMP.out"
}
faults=(ignore-cancel:cancel fs-without-capability:fs-cap
    terminal-without-capability:terminal-cap relative-paths:relative
    wrong-unknown-method:unknown wrong-invalid-params:params leak-terminal:leak
    no-session-id:sessionid bad-protocol-version:version garbage-line:garbage
    exit-mid-turn:exit slow-start:slow stderr-flood:flood)
probes=("" "${faults[@]%%:*}" "wrong-unknown-method,bad-protocol-version")
running=0
for i in "${!probes[@]}"; do
    if [ -z "${probes[$i]}" ]; then probe_to "$i" & else probe_to "$i" --fault "${probes[$i]}" & fi
    running=$((running + 1))
    if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
# "slow" is a wall-clock verdict (the first reply later than 450 ms after the
# spawn): on a loaded machine a sanitized agent can take that long to start,
# so a probe whose only extra finding is "slow" runs once more, alone.
# verdict N EXPECTED [--fault NAME]: probe N's findings
verdict() {
    local n=$1 want=$2 got
    shift 2
    got=$(cat "$TMP/probe-$n.out")
    if [ "$got" != "$want" ] && [ "$got" = "$(echo slow "$want")" ]; then
        probe_to "$n" "$@"
        got=$(cat "$TMP/probe-$n.out")
    fi
    echo "$got"
}
check "probe: no fault breaks nothing" "" "$(verdict 0 "")"
for i in "${!faults[@]}"; do
    pair=${faults[$i]}
    check "fault ${pair%%:*}" "${pair#*:}" "$(verdict $((i + 1)) "${pair#*:}" --fault "${pair%%:*}")"
done
n=$((${#faults[@]} + 1))
check "two faults at once" "version unknown" "$(verdict $n "version unknown" --fault "${probes[$n]}")"

# ---- initialize and session/new ---------------------------------------------------
start
init 0 "$CAPS_ALL"
until_reply 0
check "initialize: result" '{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":false,"audio":false,"embeddedContext":true},"mcpCapabilities":{"http":false,"sse":false}},"authMethods":[],"agentInfo":{"name":"ananke-mock","version":"X"}}' \
    "$(field '.result | .agentInfo.version = "X"')"
send '{"jsonrpc":"2.0","id":"s1","method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}'
until_reply '"s1"'
check "session/new relative cwd" '-32602 "expected an absolute path"' "$(field '.error.code, .error.data.cwd' | tr '\n' ' ' | sed 's/ $//')"
send "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/new\",\"params\":{\"cwd\":\"$WS\"}}"
until_reply 2
check "session/new without mcpServers" '-32602' "$(field '.error.code')"
new_session 3
check "session/new: sessionId" '"sess_1"' "$(field '.result.sessionId')"
new_session 4
check "session/new: unique sessionId" '"sess_2"' "$(field '.result.sessionId')"

# ---- a prompt turn: updates, then the stop reason ----------------------------------
: >"$TMP/seen"
prompt 5 "hello there"
until_reply 5
check "prompt: echo chunk before the reply" \
    "{\"sessionId\":\"$SID\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"hello there\"}}}" \
    "$(jq -c 'select(.method == "session/update") | .params' "$TMP/seen")"
check "prompt: stopReason" '{"stopReason":"end_turn"}' "$(field .result)"
send '{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}'
until_reply 6
check "prompt: unknown session" '-32602' "$(field '.error.code')"
send "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"$SID\",\"prompt\":[{\"type\":\"image\",\"data\":\"\",\"mimeType\":\"image/png\"}]}}"
until_reply 7
check "prompt: image not advertised" '-32602' "$(field '.error.code')"

# ---- cancel ---------------------------------------------------------------------------
t0=$(now_ms)
prompt 8 "please be slow"
sleep 0.2
cancel
until_reply 8
t1=$(now_ms)
check "cancel: stopReason" '"cancelled"' "$(field .result.stopReason)"
if [ $((t1 - t0)) -lt 1000 ]; then ok; else bad "cancel: took $((t1 - t0)) ms"; fi
prompt 9 "after cancel"
until_reply 9
check "a prompt after a cancel works" '"end_turn"' "$(field .result.stopReason)"

# ---- JSON-RPC errors ------------------------------------------------------------------
send '{"jsonrpc":"2.0","id":99,"method":"this/method/does/not/exist","params":{}}'
until_reply 99
check "unknown method" '{"code":-32601,"message":"Method not found","data":{"method":"this/method/does/not/exist"}}' "$(field .error)"
send '{"jsonrpc":"2.0","id":98,"method":"_vendor/ext"}'
until_reply 98
check "unknown extension method" '-32601' "$(field .error.code)"
send '{"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"'"$SID"'","prompt":{"oops":true}}}'
until_reply 10
check "invalid params" '-32602' "$(field .error.code)"
: >"$TMP/seen"
send '{"jsonrpc":"2.0","method":"_unknown/notification","params":{}}'
send '{"jsonrpc":"2.0","id":4242,"result":{}}'
send '{"jsonrpc":"2.0","id":11,"method":"nope"}'
until_reply 11
check "unknown notification and unknown response id: no answer" 1 "$(wc -l <"$TMP/seen" | tr -d ' ')"
: >"$TMP/seen"
send '{not json'
send '"just a string"'
send '{"id":12,"method":"x"}'
send '{"jsonrpc":"2.0","id":{"a":1},"method":"x"}'
send '{"jsonrpc":"2.0","id":13,"method":"nope"}'
until_reply 13
check "invalid JSON, non-object, no jsonrpc, bad id" '-32700 null -32600 null -32600 null -32600 null -32601 13' \
    "$(jq -r '"\(.error.code) \(.id)"' "$TMP/seen" | tr '\n' ' ' | sed 's/ $//')"
finish
check "stdin EOF: exit 0" 0 "$RC"

# ---- client capabilities: fs and terminal ------------------------------------------------
start
init 0 "$CAPS_ALL"
until_reply 0
new_session 1
: >"$TMP/seen"
prompt 2 "read greeting.txt"
until_reply 2
check "fs: read request with an absolute path" "fs/read_text_file $WS/greeting.txt" "$(cat "$TMP/calls")"
check "fs: file content in a tool_call_update" '"hello from the sandbox"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "tool_call_update") | .params.update.content[0].content.text' "$TMP/seen")"
: >"$TMP/calls"
prompt 3 "write out.txt some new text"
until_reply 3
check "fs: write request" "fs/write_text_file $WS/out.txt" "$(cat "$TMP/calls")"
: >"$TMP/calls"
: >"$TMP/seen"
prompt 4 'run `echo hi`'
until_reply 4
check "terminal: create, wait, output, release" "terminal/create echo
terminal/wait_for_exit term_1
terminal/output term_1
terminal/release term_1" "$(cat "$TMP/calls")"
check "terminal: reported as an execute tool call" '"execute" "completed"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "tool_call") | .params.update.kind' "$TMP/seen") $(jq -c 'select(.params.update.sessionUpdate == "tool_call_update") | .params.update.status' "$TMP/seen")"
grep -q '"cwd":"'"$WS"'"' "$TMP/seen" && ok || bad "terminal: create has the session cwd"

# ---- permission -----------------------------------------------------------------------------
: >"$TMP/seen"
PERMIT=allow
prompt 5 "ask permission please"
until_reply 5
check "permission: asked" 1 "$(grep -c '^session/request_permission' "$TMP/calls")"
check "permission allowed: tool completed" '"completed"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "tool_call_update") | .params.update.status' "$TMP/seen")"
: >"$TMP/seen"
PERMIT=reject
prompt 6 "permission again"
until_reply 6
check "permission rejected: tool failed" '"failed"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "tool_call_update") | .params.update.status' "$TMP/seen")"
PERMIT=allow
prompt 7 "permission, then cancel"
until_request session/request_permission
check "permission request carries the tool call" 'true' "$(field '.params.toolCall.toolCallId | test("^call_[0-9]+$")')"
cancel
until_reply 7
check "cancel while a permission is pending" '"cancelled"' "$(field .result.stopReason)"
finish
check "exit 0 after the capability checks" 0 "$RC"

# ---- no capabilities: nothing is called ---------------------------------------------------------
start
init 0 "$CAPS_NONE"
until_reply 0
new_session 1
prompt 2 "read greeting.txt, write x.txt hi, and run \`ls\`"
until_reply 2
check "no capabilities: no fs/terminal requests" "" "$(cat "$TMP/calls")"
check "no capabilities: end_turn" '"end_turn"' "$(field .result.stopReason)"
finish

# ---- a scenario ----------------------------------------------------------------------------------
start --scenario "$HERE/acp/full.yaml" --log "$TMP/frames.log"
init 0 "$CAPS_ALL"
until_reply 0
check "scenario: capabilities merged" 'true true' "$(field '.result.agentCapabilities | "\(.promptCapabilities.image) \(.loadSession)"' | tr -d '"')"
: >"$TMP/seen"
new_session 1
check "scenario: modes in session/new" '"ask"' "$(field .result.modes.currentModeId)"
collect # the commands update that follows
check "scenario: available_commands_update" '["plan","search"]' \
    "$(jq -c 'select(.params.update.sessionUpdate == "available_commands_update") | [.params.update.availableCommands[].name]' "$TMP/seen")"
: >"$TMP/seen"
send "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/set_mode\",\"params\":{\"sessionId\":\"$SID\",\"modeId\":\"code\"}}"
until_reply 2
check "scenario: set_mode" '{}' "$(field .result)"
collect
check "scenario: current_mode_update" '"code"' "$(jq -c 'select(.params.update.sessionUpdate == "current_mode_update") | .params.update.currentModeId' "$TMP/seen")"
send "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/set_mode\",\"params\":{\"sessionId\":\"$SID\",\"modeId\":\"nope\"}}"
until_reply 3
check "scenario: set_mode unknown mode" '-32602' "$(field .error.code)"
: >"$TMP/seen"
prompt 4 "plan the fix"
until_reply 4
check "scenario: updates in order" 'agent_thought_chunk plan tool_call tool_call_update agent_message_chunk agent_message_chunk agent_message_chunk' \
    "$(jq -r 'select(.method == "session/update") | .params.update.sessionUpdate' "$TMP/seen" | tr '\n' ' ' | sed 's/ $//')"
check "scenario: text in 3 chunks" '"ab" "cd" "ef"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "agent_message_chunk") | .params.update.content.text' "$TMP/seen" | tr '\n' ' ' | sed 's/ $//')"
check "scenario: locations absolute" "[\"$WS/src/main.c\",\"/abs/x.c\"]" \
    "$(jq -c 'select(.params.update.sessionUpdate == "tool_call") | [.params.update.locations[].path]' "$TMP/seen")"
check "scenario: tool_update goes to the last tool call" '"t1"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "tool_call_update") | .params.update.toolCallId' "$TMP/seen")"
check "scenario: plan defaults" '{"content":"Fix it","priority":"medium","status":"pending"}' \
    "$(jq -c 'select(.params.update.sessionUpdate == "plan") | .params.update.entries[1]' "$TMP/seen")"
check "scenario: stop" '"max_tokens"' "$(field .result.stopReason)"
: >"$TMP/seen"
PERMIT=no
prompt 5 "Permission to delete?"
until_reply 5
check "scenario: rejected permission skips the next step" 'false true' \
    "$(grep -q '"deleted"' "$TMP/seen" && echo true || echo false) $(grep -q '"done"' "$TMP/seen" && echo true || echo false)"
PERMIT=allow
prompt 6 "once"
until_reply 6
prompt 7 "once"
until_reply 7
check "scenario: times: 1, then the built-in echo" '"once"' \
    "$(jq -c 'select(.params.update.sessionUpdate == "agent_message_chunk") | .params.update.content.text' "$TMP/seen" | tail -n1)"
: >"$TMP/calls"
prompt 8 "files"
until_reply 8
check "scenario: read_file, write_file, terminal" "fs/read_text_file $WS/notes/a.txt
fs/write_text_file $WS/out.txt
terminal/create ls
terminal/wait_for_exit term_1
terminal/output term_1
terminal/release term_1" "$(cat "$TMP/calls")"
prompt 9 "fail now"
until_reply 9
check "scenario: error step" '{"code":-32000,"message":"scripted failure"}' "$(field .error)"
: >"$TMP/seen"
GARBAGE=0
prompt 10 "raw things"
until_reply 10
check "scenario: update and raw steps" '1 1' \
    "$(grep -c usage_update "$TMP/seen") $GARBAGE"
# session/load replays the session's updates, then answers
: >"$TMP/seen"
send "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"session/load\",\"params\":{\"sessionId\":\"$SID\",\"cwd\":\"$WS\",\"mcpServers\":[]}}"
until_reply 11
n_updates=$(grep -c '"session/update"' "$TMP/seen")
if [ "$n_updates" -ge 20 ]; then ok; else bad "session/load: replayed only $n_updates updates"; fi
check "session/load: replays the user's prompts" 1 "$(grep -c '"text":"plan the fix"' "$TMP/seen")"
check "session/load: result" '{"modes":{"currentModeId":"code","availableModes":[{"id":"ask","name":"Ask"},{"id":"code","name":"Code","description":"Writes code"}]}}' "$(field .result)"
send "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"session/load\",\"params\":{\"sessionId\":\"nope\",\"cwd\":\"$WS\",\"mcpServers\":[]}}"
until_reply 12
check "session/load: unknown session" '-32602' "$(field .error.code)"
finish
check "scenario run: exit 0" 0 "$RC"
check "--log: every frame with a timestamp and direction" 0 \
    "$(grep -cvE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{12}Z (C>A|A>C) ' "$TMP/frames.log")"
if [ "$(wc -l <"$TMP/frames.log")" -ge 40 ]; then ok; else bad "--log: too few frames"; fi

# ---- loadSession false: session/load is not there -------------------------------------------------
printf 'capabilities: {loadSession: false}\n' >"$TMP/noload.yaml"
start --scenario "$TMP/noload.yaml"
send "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session/load\",\"params\":{\"sessionId\":\"x\",\"cwd\":\"$WS\",\"mcpServers\":[]}}"
until_reply 1
check "session/load without loadSession" '-32601' "$(field .error.code)"
finish

# ---- bad scenarios and flags: exit 2 with file:line:col ---------------------------------------------
timeout 5 "$MOCK" acp --scenario "$HERE/acp/bad.yaml" </dev/null >"$TMP/out" 2>"$TMP/err"
check "bad scenario: exit status" 2 $?
check "bad scenario: message" "$HERE/acp/bad.yaml:4:9: unknown step 'txt' (did you mean 'text'?)" "$(cat "$TMP/err")"
check "bad scenario: nothing on stdout" "" "$(cat "$TMP/out")"
printf 'prompts:\n  - steps:\n      - stop: end_turn\n      - text: never\n' >"$TMP/b.yaml"
timeout 5 "$MOCK" acp --scenario "$TMP/b.yaml" </dev/null 2>"$TMP/err"
check "step after stop" "$TMP/b.yaml:4:9: this step never runs: the turn ends at line 3" "$(cat "$TMP/err")"
timeout 5 "$MOCK" acp --fault no-such-fault </dev/null 2>"$TMP/err"
check "unknown fault: exit status" 2 $?
timeout 5 "$MOCK" acp --scenario "$TMP/missing.yaml" </dev/null 2>/dev/null
check "missing scenario: exit status" 2 $?
timeout 5 "$MOCK" acp </dev/null
check "empty stdin: exit 0" 0 $?

echo "mock-acp: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
