#!/usr/bin/env bash
# End-to-end checks of `ananke comply` with the suite in compliance/acp:
#  1. against `ananke-mock acp`: every required test PASS, exit 0, JUnit/JSON reports;
#  2. once per mock fault switch: the right required test FAILs with a useful
#     line in the Markdown report, exit 1 (robustness faults: still exit 0);
#  3. against the real ACP SDK example agent (npm @agentclientprotocol/sdk
#     1.9.0, installed from tests/comply/package.json by scripts/setup.sh):
#     the whole suite; the report goes to docs/comply-sdk-example-agent.md and
#     the results that agent is known to earn (acp.md §8) are checked; the
#     same suite against the SDK 2.x agent (tests/acp-sdk/agent2.mjs) must
#     earn the same statuses (sdk2.sh);
#  4. invalid files: exit 2 with file:line:col.
# Prints "comply: N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build-comply tests/comply/run.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
sdk_pid=""
trap 'stop_pids "$sdk_pid" "${sdk2_pid:-}"; rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply # ok, bad, finish: tests/lib.sh
cd "$tests_root"

# status TEST-ID FILE.json AGENT → pass/fail/na/skip/xfail/stale
status() {
    jq -r --arg id "$1" --arg ag "$3" \
        '.agents[] | select(.name == $ag) | .tests[] | select(.id == $id) | .status' "$2"
}

# 1. the mock passes every required test. It answers at once or never, so the
#    windows written for thinking agents are cut (--timeout-scale).
"$ANANKE" comply -j 8 --timeout-scale 0.2 --agent mock="$MOCK acp" -r json:"$TMP/mock.json" -r junit:"$TMP/mock.xml" \
    >"$TMP/mock.md" 2>"$TMP/mock.err"
rc=$?
[ "$rc" -eq 0 ] && ok "mock: exit 0" || bad "mock: exit $rc (want 0)"
nreq=$(jq '[.agents[0].tests[] | select(.severity == "required")] | length' "$TMP/mock.json")
npass=$(jq '[.agents[0].tests[] | select(.severity == "required" and .status == "pass")] | length' "$TMP/mock.json")
[ "$nreq" -ge 9 ] && [ "$nreq" = "$npass" ] && ok "mock: $npass/$nreq required PASS" ||
    bad "mock: $npass/$nreq required PASS"
grep -q '^| Compliance Area | Severity | mock |' "$TMP/mock.md" && ok "mock: area table" || bad "mock: area table"
grep -q '^## mock Summary' "$TMP/mock.md" && ok "mock: summary" || bad "mock: summary"
grep -q '<testcase name="required.initialize" classname="mock"' "$TMP/mock.xml" &&
    ok "mock: junit testcase named by id, classname agent" || bad "mock: junit testcase"
grep -q '<skipped message="precondition not met: agentCap' "$TMP/mock.xml" &&
    ok "mock: junit NA is skipped with its reason" || bad "mock: junit skipped"

# 3 starts here and is checked below: the SDK example agent spends its ~20 s
# waiting (1 s between steps), so it runs beside the mock's checks
AGENT_JS=$HERE/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js
if [ -f "$AGENT_JS" ] && command -v node >/dev/null; then
    # its turns take about 5 s (1 s between steps): 0.6 keeps a 10 s window at 6 s
    "$ANANKE" comply -j 8 --timeout-scale 0.6 --agent sdk-example-agent="node $AGENT_JS" -r json:"$TMP/sdk.json" \
        >"$TMP/sdk.md" 2>"$TMP/sdk.err" &
    sdk_pid=$!
fi
# and the same suite against the SDK 2.x agent, checked below (sdk2.sh)
# shellcheck source-path=SCRIPTDIR source=sdk2.sh
. "$HERE/sdk2.sh"
sdk2_start

# 2. one fault switch → one failing test (and a diff or message worth reading).
#    A failing test waits out its window; the mock answers at once, so 0.2 (as
#    in 1) is enough for what it sends to arrive. SCALE 0.5 for ignore-cancel:
#    the end_turn it sends instead comes 2 s after the prompt.
check_fault() { # FAULT TEST-ID GREP-IN-REPORT [EXIT: 1 for a required test] [SCALE]
    local f=$1 id=$2 want=$3 want_rc=${4:-1} scale=${5:-0.2}
    "$ANANKE" comply --timeout-scale "$scale" -t "$id" --agent mock="$MOCK acp --fault $f" -r json:"$TMP/$f.json" \
        >"$TMP/$f.md" 2>"$TMP/$f.err"
    local rc=$? st
    st=$(status "$id" "$TMP/$f.json" mock)
    if [ "$rc" -eq "$want_rc" ] && [ "$st" = fail ] && grep -qF -- "$want" "$TMP/$f.md"; then
        ok "fault $f: $id FAIL, report shows: $want"
    else
        bad "fault $f: $id status=$st exit=$rc (want FAIL, exit $want_rc, report with: $want)"
        sed -n '/^### /,$p' "$TMP/$f.md" | head -n 20
    fi
}
check_fault ignore-cancel required.prompt.cancel 'result.stopReason: expected /^cancelled$/, got "end_turn"' 1 0.5
check_fault fs-without-capability required.capabilities.respect-fs-disabled "forbidden request 'fs/read_text_file'"
check_fault terminal-without-capability required.capabilities.respect-terminal-disabled "forbidden request 'terminal/create'"
check_fault relative-paths required.fs.absolute-paths '"path":"greeting.txt"'
check_fault wrong-unknown-method required.error.method-not-found 'missing field '"'"'error'"'"
check_fault wrong-unknown-method required.error.extension-method-not-found 'missing field '"'"'error'"'"
check_fault wrong-invalid-params required.error.invalid-params 'missing field '"'"'error'"'"
check_fault no-session-id required.session-new "missing field 'result.sessionId'"
check_fault bad-protocol-version required.initialize '"protocolVersion":"1"'
check_fault garbage-line required.initialize 'not a JSON-RPC message'
check_fault exit-mid-turn required.prompt.cancel 'agent exited with status 1'
# an optional test failing alone leaves the exit code 0
check_fault leak-terminal optional.terminals.release 'expected /^terminal/release$/' 0
# robustness faults break no rule: the required tests still pass
for f in slow-start stderr-flood; do
    "$ANANKE" comply --timeout-scale 0.2 -t required.initialize -t required.prompt.cancel \
        --agent mock="$MOCK acp --fault $f" >"$TMP/$f.md" 2>"$TMP/$f.err"
    rc=$?
    [ "$rc" -eq 0 ] && ok "fault $f: required tests still PASS" || bad "fault $f: exit $rc"
done

# shellcheck source=acp-reqs.sh
. "$HERE/acp-reqs.sh"

# 4. invalid invocations and files: exit 2
mkdir -p "$TMP/bad"
printf '{\n  "title": "x",\n  "oops": ${nope}\n}\n' >"$TMP/bad/bad.var.jsont"
"$ANANKE" comply --agent m="$MOCK acp" "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "bad.var.jsont:3:11: '\${nope}' outside a string" "$TMP/bad.err" &&
    ok "invalid file: exit 2 with file:line:col" || { bad "invalid file: exit $rc"; cat "$TMP/bad.err"; }
"$ANANKE" comply -t no.such.test --agent m="$MOCK acp" >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown test id: exit 2" || bad "unknown test id"
"$ANANKE" comply >/dev/null 2>&1
[ $? -eq 2 ] && ok "no agent: exit 2" || bad "no agent"
for v in 0 -3 x 100000001; do
    "$ANANKE" comply --max-messages "$v" --agent m="$MOCK acp" >/dev/null 2>"$TMP/mm.err"
    [ $? -eq 2 ] && grep -qF "ananke: --max-messages takes a number of messages (1 to 100000000), not '$v'" "$TMP/mm.err" &&
        ok "--max-messages $v: exit 2, said" || bad "--max-messages $v: $(cat "$TMP/mm.err")"
done
"$ANANKE" comply --protocol agui --max-messages 5 --agent m=http://127.0.0.1:1/ >/dev/null 2>"$TMP/mm.err"
[ $? -eq 2 ] && grep -q -- "--max-messages: for --protocol acp and mcp" "$TMP/mm.err" &&
    ok "--max-messages with agui: exit 2, said" || bad "--max-messages agui: $(cat "$TMP/mm.err")"
n=$("$ANANKE" comply --list-tests | wc -l)
[ "$n" -ge 26 ] && ok "--list-tests: $n tests" || bad "--list-tests: $n"
printf '{"agent_servers":{"m":{"command":"%s","args":["acp"],"env":{"X":"1"}}}}\n' "$MOCK" >"$TMP/settings.json"
"$ANANKE" comply --settings "$TMP/settings.json" -t required.session-new >"$TMP/settings.md" 2>&1
[ $? -eq 0 ] && grep -q '^## m Summary' "$TMP/settings.md" && ok "--settings" || bad "--settings"

# 3. the real SDK example agent (started above)
if [ -z "$sdk_pid" ]; then
    bad "sdk example agent: $AGENT_JS missing (run scripts/setup.sh; needs node and npm)"
else
    wait "$sdk_pid"
    rc=$?
    sdk_pid=""
    [ "$rc" -eq 0 ] && ok "sdk: exit 0 (no required failure)" || bad "sdk: exit $rc"
    # acp.md §8: it answers initialize/session/new, cancels, -32601, -32602,
    # and never calls fs/* or terminal/*
    for id in required.initialize required.session-new required.prompt.cancel \
        required.error.method-not-found required.error.extension-method-not-found \
        required.error.invalid-params required.capabilities.respect-fs-disabled \
        required.capabilities.respect-terminal-disabled required.fs.absolute-paths \
        optional.prompt.resource_link optional.tool-calls.updates \
        optional.tool-calls.permission.allow; do
        st=$(status "$id" "$TMP/sdk.json" sdk-example-agent)
        [ "$st" = pass ] && ok "sdk: $id PASS" || bad "sdk: $id $st (want PASS)"
    done
    # it advertises no image/audio/embedded context and no loadSession: NA
    for id in optional.prompt.image optional.prompt.audio optional.prompt.resource.embedded \
        optional.session.load; do
        st=$(status "$id" "$TMP/sdk.json" sdk-example-agent)
        [ "$st" = na ] && ok "sdk: $id NA" || bad "sdk: $id $st (want NA)"
    done
    # it never reads files through the client: FAIL with "no similar message"
    st=$(status optional.fs.read "$TMP/sdk.json" sdk-example-agent)
    [ "$st" = fail ] && ok "sdk: optional.fs.read FAIL (it never calls fs/*)" || bad "sdk: optional.fs.read $st"
    # the kept report: volatile parts (paths, session ids, sandboxes) replaced
    sed -e "s#$HERE/node_modules#tests/comply/node_modules#g" \
        -e 's#/[A-Za-z0-9_./-]*/ananke-comply-[A-Za-z0-9]\{6\}#<SANDBOX>#g' \
        -e 's/[0-9a-f]\{32\}/<SESSION-ID>/g' \
        "$TMP/sdk.md" >"$tests_root/docs/comply-sdk-example-agent.md"
    ok "sdk: report written to docs/comply-sdk-example-agent.md"
fi
sdk2_check

# Ctrl-C: the run stops at once with 130 and leaves no agent behind
mark="$TMP/interrupt-marker.log"
interrupt "$TMP/int.md" "$TMP/int.err" "$ANANKE" comply -j 4 --agent m="$MOCK acp --log $mark"
[ "$rc" -eq 130 ] && [ "$took" -lt 5000 ] && ok "interrupt: exit 130 after ${took} ms" ||
    bad "interrupt: exit $rc after ${took} ms (want 130, quickly)"
sleep 0.3
if pgrep -f -- "--log $mark" >/dev/null; then bad "interrupt: an agent was left running"
else ok "interrupt: no agent left running"; fi

finish
