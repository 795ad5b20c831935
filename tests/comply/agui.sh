#!/usr/bin/env bash
# End-to-end checks of `ananke comply --protocol agui` with the suite in
# compliance/agui:
#  1. against `ananke-mock agui` with tests/comply/agui-mock.yaml (a server
#     that does what the suite asks): every test PASS, exit 0, JUnit/JSON
#     reports, -t, --list-tests;
#  2. against the deliberately broken mock (tests/comply/agui-broken.yaml,
#     one bug per rule): exactly the tests in BROKEN_FAILS fail, each with
#     the line of the report that names its bug, and the rest pass; exit 1;
#  2b. against a plain producer (tests/comply/agui-plain.yaml: text only):
#     the tests of the features it does not use are NA, none FAIL;
#  3. against tests/peers/agui-server.mjs, a server whose every byte comes
#     from the official @ag-ui/encoder (npm, installed by scripts/setup.sh):
#     every test PASS;
#  4. the reports of 1 and 2 kept in docs/comply-agui-mock.md and
#     docs/comply-agui-broken.md are current (volatile parts normalised;
#     ANANKE_UPDATE_DOCS=1 rewrites them instead of comparing);
#  5. invalid files and invocations: exit 2, with file:line:col;
#  6. Ctrl-C while a server holds a run open: exit 130 at once.
# Prints "comply-agui: N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build-cagui tests/comply/agui.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
PIDS=()
cleanup() {
    stop_pids "${PIDS[@]}"
    rm -rf "$TMP"
}
trap cleanup EXIT
pass=0 fail=0 suite=comply-agui # ok, bad, finish: tests/lib.sh
cd "$tests_root"

# serve NAME COMMAND...: start a server that writes its port to $TMP/NAME.port
# (its last argument is that file) and set URL to its endpoint.
serve() {
    local name=$1; shift
    spawn_server "$TMP/$name.port" 0.1 "$TMP/$name.out" "$TMP/$name.err" timeout -k 5 600 "$@"
    local started=$?
    PIDS+=("$spawned_pid")
    if [ "$started" -ne 0 ]; then
        URL=
        bad "$name: the server did not start"
        sed 's/^/    /' "$TMP/$name.err" | head -n 20
        return 1
    fi
    URL="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/$name.port")/agent"
}

# status TEST-ID FILE.json → pass/fail/na/skip/xfail/stale
status() {
    jq -r --arg id "$1" '.agents[0].tests[] | select(.id == $id) | .status' "$2"
}

# The kept reports: ports, UUIDs, the mocks' numbered ids and timestamps
# change from run to run.
normalise() {
    sed -E -e 's#http://127\.0\.0\.1:[0-9]+#http://127.0.0.1:PORT#g' \
        -e 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/<UUID>/g' \
        -e 's/\b(msg|call)_[0-9]+_[0-9]+/\1_N_N/g' \
        -e 's/"timestamp":[0-9]+/"timestamp":0/g'
}
kept_report() { # REPORT.md DOC
    local doc=$tests_root/$2
    normalise <"$1" >"$TMP/normalised.md"
    if [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
        cp "$TMP/normalised.md" "$doc"
        ok "$2 rewritten (ANANKE_UPDATE_DOCS=1)"
    elif cmp -s "$TMP/normalised.md" "$doc"; then
        ok "$2 is current"
    else
        bad "$2 is stale: regenerate with ANANKE_UPDATE_DOCS=1 tests/comply/agui.sh"
        diff "$doc" "$TMP/normalised.md" | head -n 20
    fi
}

ALL=$("$ANANKE" comply --protocol agui --list-tests | cut -d' ' -f1)
n=$(wc -w <<<"$ALL")
[ "$n" -ge 10 ] && ok "--list-tests: $n tests" || bad "--list-tests: $n"

# 1. the good mock: everything passes. A scripted server answers at once or
#    never, so the windows written for thinking agents are cut.
if serve mock "$MOCK" agui --scenario "$HERE/agui-mock.yaml" --port-file "$TMP/mock.port"; then
    "$ANANKE" comply --protocol agui -j 8 --timeout-scale 0.2 --agent mock="$URL" \
        -r json:"$TMP/mock.json" -r junit:"$TMP/mock.xml" >"$TMP/mock.md" 2>"$TMP/mock.err"
    rc=$?
    [ "$rc" -eq 0 ] && ok "mock: exit 0" || { bad "mock: exit $rc (want 0)"; tail -n 20 "$TMP/mock.err"; }
    for id in $ALL; do
        st=$(status "$id" "$TMP/mock.json")
        [ "$st" = pass ] && ok "mock: $id PASS" || bad "mock: $id $st (want PASS)"
    done
    grep -q '^# AG-UI Compliance Report' "$TMP/mock.md" && ok "mock: report title" || bad "mock: report title"
    grep -q '^| Compliance Area | Severity | mock |' "$TMP/mock.md" && ok "mock: area table" || bad "mock: area table"
    grep -q '^- Probe run (one user message, "Hello"): `HTTP 200 text/event-stream' "$TMP/mock.md" &&
        ok "mock: summary shows the probe run" || bad "mock: summary probe line"
    grep -q '  - observed: `step 1 (run, Accept: application/json): HTTP 200 text/event-stream' "$TMP/mock.md" &&
        ok "mock: the Accept: application/json answer is noted" || bad "mock: accept-json note"
    grep -q '<testcase name="required.run.lifecycle" classname="mock"' "$TMP/mock.xml" &&
        grep -q '<system-out>observed: step 1 (run, Accept: application/json)' "$TMP/mock.xml" &&
        ok "mock: junit testcases and notes" || bad "mock: junit"
    [ "$(jq -r .protocol "$TMP/mock.json")" = agui ] && ok "mock: json protocol agui" || bad "mock: json protocol"
    kept_report "$TMP/mock.md" docs/comply-agui-mock.md
    # -t: one test, and an unknown id is exit 2
    "$ANANKE" comply --protocol agui -t required.run.lifecycle --agent mock="$URL" -r json:"$TMP/one.json" \
        >/dev/null 2>&1
    [ $? -eq 0 ] && [ "$(jq '.agents[0].tests | length' "$TMP/one.json")" = 1 ] && ok "-t runs one test" ||
        bad "-t"
    "$ANANKE" comply --protocol agui -t no.such.test --agent mock="$URL" >/dev/null 2>&1
    [ $? -eq 2 ] && ok "unknown test id: exit 2" || bad "unknown test id"
    # a test file given directly
    "$ANANKE" comply --protocol agui --agent mock="$URL" compliance/agui/required.input.unknown-field.jsont \
        >/dev/null 2>&1
    [ $? -eq 0 ] && ok "a single .jsont file as the suite" || bad "single file"
    # the caps on what an endpoint sends are settable; past one the step is an
    # error that names it, and generous ones change nothing
    unmet1() { jq -r '.agents[0].tests[0].unmet[0].message // ""' "$1"; }
    "$ANANKE" comply --protocol agui -t required.run.lifecycle --agent mock="$URL" \
        --max-event-bytes 40 -r json:"$TMP/cap-ev.json" >/dev/null 2>&1
    grep -q 'an SSE event larger than max_event_bytes (40 bytes)' <<<"$(unmet1 "$TMP/cap-ev.json")" &&
        ok "--max-event-bytes 40: the step names max_event_bytes" || bad "--max-event-bytes: $(unmet1 "$TMP/cap-ev.json")"
    "$ANANKE" comply --protocol agui -t required.run.lifecycle --agent mock="$URL" \
        --max-turn-bytes 100 -r json:"$TMP/cap-turn.json" >/dev/null 2>&1
    grep -q 'response body larger than max_turn_bytes (100 bytes)' <<<"$(unmet1 "$TMP/cap-turn.json")" &&
        ok "--max-turn-bytes 100: the step names max_turn_bytes" || bad "--max-turn-bytes: $(unmet1 "$TMP/cap-turn.json")"
    "$ANANKE" comply --protocol agui -t required.run.lifecycle --agent mock="$URL" \
        --max-event-bytes 100000 --max-turn-bytes 100000 >/dev/null 2>&1
    [ $? -eq 0 ] && ok "generous caps: the test passes" || bad "generous caps"
    "$ANANKE" comply --protocol agui --agent mock="$URL" --max-turn-bytes 0 >/dev/null 2>"$TMP/cap0.err"
    [ $? -eq 2 ] && grep -q "at least 1, not '0'" "$TMP/cap0.err" && ok "--max-turn-bytes 0: exit 2" || bad "--max-turn-bytes 0"
fi

# 2. the broken mock: these tests fail, each for its bug; the others pass
declare -A BROKEN_FAILS=(
    [required.events.text-message]="protocol violation [open-before-use] at event #2 (TEXT_MESSAGE_CONTENT)"
    [required.events.chunks]="protocol violation [chunk-first-needs-id] at event #2 (TEXT_MESSAGE_CHUNK)"
    [required.events.fields]="protocol violation [required-field] at event #2 (TEXT_MESSAGE_START)"
    [required.run.ends-once]="protocol violation [nested-run-started] at event #2 (RUN_STARTED)"
    [required.run.lifecycle]="protocol violation [first-event] at event #1 (TEXT_MESSAGE_START)"
    [required.run.thread-id-echo]="protocol violation [thread-id-echo] at event #5 (RUN_FINISHED)"
    [required.run.run-id-echo]="protocol violation [run-id-echo] at event #5 (RUN_FINISHED)"
    [required.run.nothing-after-finish]="protocol violation [after-run-finished] at event #6 (TEXT_MESSAGE_START)"
    [required.run.error]="protocol violation [required-field] at event #2 (RUN_ERROR): missing 'message'"
    [required.run.error-ends-run]='got "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_ERROR TEXT_MESSAGE_START"'
    [required.run.outcome-interrupt]='anyOf[1]: closest is event #5 (RUN_FINISHED)'
    [required.run.interrupt-resume]='HTTP 422: {"error":"resume is not supported"}'
    [required.steps.finished-open]="protocol violation [open-before-use] at event #3 (STEP_FINISHED)"
    [required.steps.closed]="protocol violation [closed-before-finish] at event #6 (RUN_FINISHED): step 'plan' is still open"
    [optional.run.protocol-version]="cannot interpret protocolVersion 'one-point-one-beta-build-2026'"
    [required.events.no-reopen]="protocol violation [already-open] at event #3 (TEXT_MESSAGE_START): text message 'msg-moon' is already open"
    [required.events.closed]="protocol violation [closed-before-finish] at event #4 (RUN_FINISHED): text message 'msg-sky' is still open"
    [required.events.chunk-conflict]="protocol violation [chunk-conflict] at event #3 (TEXT_MESSAGE_CHUNK)"
    [required.events.field-types]="protocol violation [field-type] at event #2 (TEXT_MESSAGE_START): 'timestamp': expected integer"
    [required.events.subagents]="protocol violation [subagent-attribution] at event #4 (TEXT_MESSAGE_CONTENT)"
    [optional.events.no-nulls]='event #2 (TEXT_MESSAGE_START) matches noEvents[0]'
    [required.tools.args-open]="protocol violation [open-before-use] at event #3 (TOOL_CALL_ARGS)"
    [required.tools.ended]="protocol violation [closed-before-finish] at event #4 (RUN_FINISHED): tool call 'call-n' is still open"
    [required.reasoning.open-before-use]="protocol violation [open-before-use] at event #3 (REASONING_MESSAGE_CONTENT)"
    [required.reasoning.closed]="protocol violation [closed-before-finish] at event #9 (RUN_FINISHED): reasoning span 'rs-1' is still open"
    [optional.reasoning.no-thinking]='event #2 (THINKING_START) matches noEvents[0]'
    [required.state.delta-applies]="STATE_DELTA (event #2) not applied, state kept: operation 0 (replace '/ananke/settings/mode'): path not found"
    [required.input.not-json]='closest actual: `{"status":"completed","rule":null,"error":null,"http":{"status":200,"contentType":"text/event-stream"}}`'
    [required.run.same-thread-history]="timeout: no complete answer within 6000 ms"
    [required.input.all-fields]='HTTP 422: {"error":"tools, context and forwardedProps are not supported"}'
    [required.input.unknown-field]="HTTP 400: {\"error\":\"unknown field 'anankeUnknownField'\"}"
    [required.input.missing-thread-id]='anyOf[0]: status: expected /^http_error$/, got "completed"'
    [required.input.wrong-type]='anyOf[0]: http.status: expected /^4[0-9][0-9]$/, got 200'
    [required.input.tool-result-history]='status: expected /^completed$/, got "http_error"'
    [required.http.accept-event-stream]='http.contentType: expected /^text/event-stream/, got "text/plain"'
    [optional.http.accept-json]='anyOf[1]: http.contentType: expected /^text/event-stream/, got "text/plain"'
    [optional.tools.frontend-call]='event #5 (TOOL_CALL_RESULT) matches noEvents[0]'
    [optional.context.used]='messages[]: no element matches {"role":"^assistant$","content":"ANANKE-CTX-7f3a"}'
    [optional.state.round-trip]="missing field 'snapshot.ananke'"
)
if serve broken "$MOCK" agui --scenario "$HERE/agui-broken.yaml" --port-file "$TMP/broken.port"; then
    "$ANANKE" comply --protocol agui -j 8 --timeout-scale 0.2 --agent broken="$URL" \
        -r json:"$TMP/broken.json" >"$TMP/broken.md" 2>"$TMP/broken.err"
    rc=$?
    [ "$rc" -eq 1 ] && ok "broken: exit 1" || bad "broken: exit $rc (want 1)"
    for id in $ALL; do
        st=$(status "$id" "$TMP/broken.json")
        want=${BROKEN_FAILS[$id]:-}
        if [ -z "$want" ]; then
            [ "$st" = pass ] && ok "broken: $id PASS (not its bug)" || bad "broken: $id $st (want PASS)"
        elif [ "$st" = fail ] && grep -qF -- "$want" "$TMP/broken.md"; then
            ok "broken: $id FAIL, report shows: $want"
        else
            bad "broken: $id $st (want FAIL, report with: $want)"
        fi
    done
    nf=$(jq '[.agents[0].tests[] | select(.status == "fail")] | length' "$TMP/broken.json")
    [ "$nf" = "${#BROKEN_FAILS[@]}" ] && ok "broken: exactly ${#BROKEN_FAILS[@]} tests fail" ||
        bad "broken: $nf tests fail, want ${#BROKEN_FAILS[@]}"
    kept_report "$TMP/broken.md" docs/comply-agui-broken.md
    # an optional test failing alone leaves the exit code 0
    "$ANANKE" comply --protocol agui -t optional.context.used --agent broken="$URL" \
        -r json:"$TMP/opt.json" >/dev/null 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && [ "$(status optional.context.used "$TMP/opt.json")" = fail ] &&
        ok "broken: an optional failure alone is exit 0" || bad "broken: optional failure exit $rc"

    # 6. Ctrl-C while the server holds a run open (the broken mock's stall,
    #    whose window is 30 s unscaled)
    interrupt "$TMP/int.md" "$TMP/int.err" \
        "$ANANKE" comply --protocol agui -t required.run.same-thread-history --agent broken="$URL"
    [ "$rc" -eq 130 ] && [ "$took" -lt 2000 ] && ok "interrupt: exit 130 after ${took} ms" ||
        bad "interrupt: exit $rc after ${took} ms (want 130, quickly)"
fi

# 2b. a plain producer (one text message for every run): the tests of a
#     feature it does not use are NA with their reason, never FAIL, and
#     every other required test passes (exit 0)
PLAIN_NA="required.events.chunks required.events.chunk-conflict required.events.subagents
required.reasoning.open-before-use required.reasoning.closed optional.reasoning.no-thinking
required.run.error required.run.error-ends-run required.run.outcome-interrupt required.run.interrupt-resume
required.state.delta-applies required.tools.args-open required.tools.ended
required.steps.finished-open required.steps.closed"
if serve plain "$MOCK" agui --scenario "$HERE/agui-plain.yaml" --port-file "$TMP/plain.port"; then
    "$ANANKE" comply --protocol agui -j 8 --timeout-scale 0.2 --agent plain="$URL" \
        -r json:"$TMP/plain.json" >"$TMP/plain.md" 2>"$TMP/plain.err"
    rc=$?
    [ "$rc" -eq 0 ] && ok "plain: exit 0" || bad "plain: exit $rc (want 0)"
    got=$(jq -r '[.agents[0].tests[] | select(.status == "na") | .id] | sort | join(" ")' "$TMP/plain.json")
    want=$(tr ' ' '\n' <<<"$PLAIN_NA" | grep . | sort | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$want" ] && ok "plain: the feature tests are NA" || bad "plain: NA '$got', want '$want'"
    nr=$(jq -r '[.agents[0].tests[] | select(.status == "na") | select((.na_reason // "") == "")] | length' \
        "$TMP/plain.json")
    [ "$nr" = 0 ] && ok "plain: every NA says why" || bad "plain: $nr NA without a reason"
    grep -qF 'the agent made no tool call (asked to call a frontend tool it was offered) (HTTP 200 text/event-stream' \
        "$TMP/plain.md" && ok "plain: the NA reason shows what came" || bad "plain: NA reason in the report"
    rf=$(jq -r '[.agents[0].tests[] | select(.status == "fail" and .severity == "required") | .id] | join(" ")' \
        "$TMP/plain.json")
    [ -z "$rf" ] && ok "plain: no required test fails" || bad "plain: required failures: $rf"
fi

# 3. the official encoder
PEERS=$tests_root/tests/peers
if ! command -v node >/dev/null || [ ! -d "$PEERS/node_modules/@ag-ui/encoder" ]; then
    bad "encoder: node or tests/peers/node_modules/@ag-ui/encoder missing (run scripts/setup.sh)"
elif serve encoder node "$PEERS/agui-server.mjs" 0 --port-file "$TMP/encoder.port"; then
    "$ANANKE" comply --protocol agui -j 8 --agent encoder="$URL" -r json:"$TMP/encoder.json" \
        >"$TMP/encoder.md" 2>"$TMP/encoder.err"
    rc=$?
    [ "$rc" -eq 0 ] && ok "encoder: exit 0" || { bad "encoder: exit $rc"; tail -n 20 "$TMP/encoder.err"; }
    for id in $ALL; do
        st=$(status "$id" "$TMP/encoder.json")
        [ "$st" = pass ] && ok "encoder: $id PASS" || bad "encoder: $id $st (want PASS)"
    done
fi

# requirement IDs: cited, judged, not_met per fault, docs/comply.md's table
# shellcheck source=agui-reqs.sh
. "$HERE/agui-reqs.sh"

# 5. invalid files and invocations: exit 2 before anything is contacted
mkdir -p "$TMP/bad"
cat >"$TMP/bad/x.status.jsont" <<'EOF'
{
  "title": "t", "description": "d", "severity": "required", "docs": ["u"],
  "steps": [
    { "run": { "user": "hi",
               "expect": { "status": "complete" } } }
  ]
}
EOF
"$ANANKE" comply --protocol agui --agent m=http://127.0.0.1:9/ "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
rc=$?
[ "$rc" -eq 2 ] && grep -qF "x.status.jsont:5:38: steps[0].run.expect.status: unknown status 'complete', did you mean 'completed'?" "$TMP/bad.err" &&
    ok "invalid status: exit 2 with file:line:col" || { bad "invalid status: exit $rc"; cat "$TMP/bad.err"; }
"$ANANKE" comply --protocol agui --agent m=http://127.0.0.1:9/ compliance/acp/required.initialize.jsont \
    >/dev/null 2>"$TMP/acp.err"
[ $? -eq 2 ] && grep -q 'an ACP test' "$TMP/acp.err" && ok "an ACP test under --protocol agui: exit 2" ||
    bad "ACP test under agui"
"$ANANKE" comply --protocol agui --agent m="node server.js" >/dev/null 2>"$TMP/url.err"
[ $? -eq 2 ] && grep -q 'http:// or https:// URL' "$TMP/url.err" && ok "a command for an AG-UI agent: exit 2" ||
    bad "agent not a URL"
"$ANANKE" comply --protocol agui >/dev/null 2>&1
[ $? -eq 2 ] && ok "no agent: exit 2" || bad "no agent"
printf 'input: strictly\nrules: []\n' >"$TMP/bad-input.yaml"
"$MOCK" agui --scenario "$TMP/bad-input.yaml" >/dev/null 2>"$TMP/bad-input.err"
[ $? -eq 2 ] && grep -qF "bad-input.yaml:1:8: 'input' is strict or lenient" "$TMP/bad-input.err" &&
    ok "mock: a bad 'input:' value is exit 2 with its position" ||
    { bad "mock: bad input value"; cat "$TMP/bad-input.err"; }
"$ANANKE" comply --protocol nope --agent m=x >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown protocol: exit 2" || bad "unknown protocol"

finish
