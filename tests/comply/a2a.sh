#!/usr/bin/env bash
# End-to-end checks of `ananke comply --protocol a2a` with the suite in
# compliance/a2a (A2A 0.3.0 over JSON-RPC, --spec 0.3.0, requirement set
# compliance/a2a/requirements/0.3.0.json; 1.0: tests/comply/a2a-v1.sh):
#  1. the suite: at least 60 tests, each citing a requirement of the set;
#  2. against an agent built on the official A2A JavaScript SDK
#     (tests/a2a/agent.mjs on @a2a-js/sdk, pinned in tests/a2a/package.json,
#     0.3 through the SDK's compatibility layer): every required test PASS,
#     exit 0, and the optional tests it is known to fail fail (its
#     deviations, docs/comply.md "A2A");
#  3. against `ananke-mock a2a --version 0.3`: every test that runs PASS;
#  4. once per mock fault (--fault): exit 1, the test that cites the broken
#     requirement FAILs and the requirement is not_met, the others are met;
#  5. the reports: the JSON requirements table, Markdown and JUnit tables,
#     --spec and --binding errors;
#  8. the suite over the REST binding (tests/comply/a2a-rest.sh).
# Prints "comply-a2a: N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build tests/comply/a2a.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
pids=()
trap 'stop_pids "${pids[@]}"; rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-a2a # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_node "the SDK agent"
need_jq
AGENT_JS=$tests_root/tests/a2a/agent.mjs
[ -d "$tests_root/tests/a2a/node_modules/@a2a-js/sdk" ] ||
    broken "tests/a2a/node_modules/@a2a-js/sdk is missing (run scripts/setup.sh: npm ci in tests/a2a)"
[ -x "$MOCK" ] || broken "$MOCK not built (make build)"

# start NAME COMMAND...: a server writing its port to $TMP/NAME.port; its
# base URL is left in $url
start() {
    local name=$1
    shift
    spawn_server "$TMP/$name.port" 0.1 "$TMP/$name.out" "$TMP/$name.err" \
        timeout -k 5 300 "$@" --port 0 --port-file "$TMP/$name.port"
    local started=$?
    pids+=("$spawned_pid")
    [ "$started" -eq 0 ] || broken "the $name server did not start: $(head -c 300 "$TMP/$name.err")"
    url="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/$name.port")"
}

# status TEST-ID FILE.json → pass/fail/na/skip/xfail/stale; req REQ-ID FILE.json → met/not_met/not_tested
status() {
    jq -r --arg id "$1" '.agents[0].tests[] | select(.id == $id) | .status' "$2"
}
req() {
    jq -r --arg id "$1" '.agents[0].requirements[$id].status' "$2"
}

# 1. the suite
SET=compliance/a2a/requirements/0.3.0.json
n=$("$ANANKE" comply --protocol a2a --spec 0.3.0 --list-tests | wc -l)
[ "$n" -ge 60 ] && ok "--list-tests: $n tests" || bad "--list-tests: $n (want >= 60)"
uncited=$(for f in compliance/a2a/*.jsont; do jq -e '(.requirements | length) > 0' "$f" >/dev/null || echo "$f"; done)
[ -z "$uncited" ] && ok "every test cites a requirement" || bad "tests citing nothing: $uncited"
[ "$(jq '[.requirements[] | select(.level == "MUST")] | length' "$SET")" -ge 40 ] &&
    ok "the 0.3.0 set has its MUSTs" || bad "the 0.3.0 set"

start sdk node "$AGENT_JS"
SDK=$url
start mock "$MOCK" a2a --version 0.3
MOCK_URL=$url

# 2. the SDK agent (its slow task runs 20 s: cancel tests stop it)
"$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --agent sdk="$SDK" -r json:"$TMP/sdk.json" -r junit:"$TMP/sdk.xml" \
    >"$TMP/sdk.md" 2>"$TMP/sdk.err"
rc=$?
[ "$rc" -eq 0 ] && ok "sdk: exit 0" || { bad "sdk: exit $rc (want 0)"; tail -n 20 "$TMP/sdk.err"; }
nreq=$(jq '[.agents[0].tests[] | select(.severity == "required")] | length' "$TMP/sdk.json")
npass=$(jq '[.agents[0].tests[] | select(.severity == "required" and (.status == "pass" or .status == "na"))] | length' "$TMP/sdk.json")
[ "$nreq" -ge 40 ] && [ "$nreq" = "$npass" ] && ok "sdk: $npass/$nreq required PASS or NA" ||
    bad "sdk: $npass/$nreq required PASS or NA"
# what the SDK's 0.3 layer is known to do otherwise than the spec says
for t in optional.cancel.twice optional.err.extended-card optional.err.content-type optional.stream.input-required; do
    st=$(status "$t" "$TMP/sdk.json")
    [ "$st" = fail ] && ok "sdk: $t FAIL (a known deviation)" || bad "sdk: $t $st (want FAIL)"
done
nfail=$(jq '[.agents[0].tests[] | select(.status == "fail")] | length' "$TMP/sdk.json")
[ "$nfail" = 4 ] && ok "sdk: only those 4 fail" || bad "sdk: $nfail tests fail (want 4)"
grep -q 'response.error.code: expected -32007, got -32004' "$TMP/sdk.md" &&
    ok "sdk: the wrong code is said as such" || bad "sdk: -32007 diff line"
[ "$(req A2A-CANCEL-002 "$TMP/sdk.json")" = not_met ] && [ "$(req A2A-CARD-002 "$TMP/sdk.json")" = met ] &&
    [ "$(req A2A-PUSH-001 "$TMP/sdk.json")" = not_tested ] &&
    ok "sdk: requirements met, not_met, not_tested" || bad "sdk: requirement statuses"

# 3. the clean mock
"$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --timeout-scale 0.3 --agent mock="$MOCK_URL" -r json:"$TMP/mock.json" \
    >"$TMP/mock.md" 2>"$TMP/mock.err"
rc=$?
[ "$rc" -eq 0 ] && ok "mock: exit 0" || bad "mock: exit $rc (want 0)"
jq -e '[.agents[0].tests[] | select(.status == "fail")] | length == 0' "$TMP/mock.json" >/dev/null &&
    ok "mock: no test fails" || bad "mock: $(grep FAIL "$TMP/mock.err" | head -n 5)"
jq -e '.spec == "0.3.0" and .agents[0].must_coverage.met == .agents[0].must_coverage.tested
       and ([.agents[0].requirements[] | select(.status == "not_met")] | length == 0)
       and (.agents[0].tests | all(.requirements | length > 0))
       and (.agents[0].tests[0] | has("id") and has("severity") and has("status"))
       and (.agents[0].requirements | to_entries | all(.value.level | test("^(MUST|SHOULD|MAY)$")))' \
    "$TMP/mock.json" >/dev/null && ok "mock: json requirements table, every MUST tested is met" ||
    bad "mock: json requirements table"

# 4. the faults: FAULT TEST REQUIREMENT [DIFF [MOCK-FLAG]]
fault() {
    local f=$1 t=$2 r=$3 diff=${4:-} more=${5:-}
    # shellcheck disable=SC2086 # more: one flag or none
    start "fault-$f" "$MOCK" a2a --version 0.3 --fault "$f" $more
    "$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --timeout-scale 0.3 --agent "$f=$url" -r json:"$TMP/$f.json" \
        >"$TMP/$f.md" 2>"$TMP/$f.err"
    local rc=$?
    [ "$rc" -eq 1 ] && ok "$f: exit 1" || bad "$f: exit $rc (want 1)"
    [ "$(status "$t" "$TMP/$f.json")" = fail ] && ok "$f: $t FAIL" || bad "$f: $t $(status "$t" "$TMP/$f.json")"
    jq -e --arg t "$t" --arg r "$r" '.agents[0].tests[] | select(.id == $t) | .requirements | index($r)' \
        "$TMP/$f.json" >/dev/null && ok "$f: $t cites $r" || bad "$f: $t does not cite $r"
    [ "$(req "$r" "$TMP/$f.json")" = not_met ] && ok "$f: $r not_met" || bad "$f: $r $(req "$r" "$TMP/$f.json")"
    [ "$(req A2A-RPC-003 "$TMP/$f.json")" = met ] && ok "$f: the rest still met" || bad "$f: A2A-RPC-003"
    if [ -n "$diff" ]; then
        grep -qF "$diff" "$TMP/$f.md" && ok "$f: says '$diff'" || bad "$f: no '$diff' in the report"
        grep -q "^comply: $f $t FAIL (.*): $diff" "$TMP/$f.err" && ok "$f: the progress line says it" ||
            bad "$f: progress line: $(grep "$t" "$TMP/$f.err")"
    fi
}
fault bad-transition required.stream.transitions A2A-TASK-010
fault card-no-name required.card.name A2A-CARD-002 "missing field 'response.name'"
fault wrong-error-code required.get.not-found A2A-ERR-001 "response.error.code: expected -32001, got -32603"
fault push-forgets required.push.get A2A-PUSH-002 "" --push

# push notifications, where the card offers them: the mock with --push
start push "$MOCK" a2a --version 0.3 --push
"$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --timeout-scale 0.3 --agent push="$url" -r json:"$TMP/push.json" \
    >/dev/null 2>"$TMP/push.err"
rc=$?
[ "$rc" -eq 0 ] && ok "push: exit 0" || bad "push: exit $rc"
for t in required.push.set required.push.get optional.push.list optional.push.delete; do
    [ "$(status "$t" "$TMP/push.json")" = pass ] && ok "push: $t PASS" || bad "push: $t $(status "$t" "$TMP/push.json")"
done
[ "$(status required.err.push-get-unsupported "$TMP/push.json")" = na ] &&
    ok "push: the not-supported test is NA" || bad "push: err.push-get-unsupported not NA"

# 5. the reports and the options
grep -q '^## Requirements (spec revision 0.3.0)' "$TMP/sdk.md" && ok "md: requirements section" || bad "md: requirements section"
grep -q '^- sdk: MUST coverage: [0-9]* of [0-9]* MUSTs tested, [0-9]* met' "$TMP/sdk.md" &&
    ok "md: MUST coverage" || bad "md: MUST coverage"
grep -q '^| \[A2A-CANCEL-002\](https://a2a-protocol.org/v0.3.0/specification/#82-a2a-specific-errors) | MUST | .* | \*\*not met\*\* |' "$TMP/sdk.md" &&
    ok "md: a requirement row" || bad "md: requirement row"
grep -q '^- requirements: `A2A-CARD-002`' "$TMP/sdk.md" && ok "md: a test names its requirements" || bad "md: test requirements"
grep -q '<property name="requirement:A2A-CANCEL-002" value="MUST not_met"/>' "$TMP/sdk.xml" &&
    grep -q '<property name="must_coverage" value="' "$TMP/sdk.xml" &&
    grep -q '<property name="requirement" value="A2A-CARD-002"/>' "$TMP/sdk.xml" &&
    ok "junit: requirement properties" || bad "junit: requirement properties"
"$ANANKE" comply --protocol a2a --spec 9.9 --agent m="$MOCK_URL" >/dev/null 2>"$TMP/spec.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--spec 9.9: no requirement set' "$TMP/spec.err" &&
    grep -q 'newest: 1.0' "$TMP/spec.err" && ok "--spec 9.9: exit 2 naming the newest" ||
    bad "--spec 9.9: exit $rc: $(cat "$TMP/spec.err")"
"$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.card.name --agent m="$MOCK_URL" -r json:"$TMP/spec.json" >/dev/null 2>&1
[ "$(jq -r .spec "$TMP/spec.json")" = 0.3.0 ] && ok "--spec 0.3.0" || bad "--spec 0.3.0"
"$ANANKE" comply --protocol acp --binding jsonrpc --agent m=true >/dev/null 2>&1
[ $? -eq 2 ] && ok "--binding: a2a only" || bad "--binding with acp accepted"
# the caps: past one, the step's answer names it
"$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.stream.final-last --max-event-bytes 40 --agent m="$MOCK_URL" \
    >/dev/null 2>"$TMP/cap.err"
grep -q 'required.stream.final-last FAIL (.*): the answer was: .*an SSE event larger than max_event_bytes (40 bytes)' "$TMP/cap.err" &&
    ok "--max-event-bytes: the test fails naming the cap" || bad "--max-event-bytes: $(cat "$TMP/cap.err")"
"$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.card.name -t required.rpc.method-not-found --max-event-bytes 10 \
    --agent m="$MOCK_URL" >/dev/null 2>&1 && ok "--max-event-bytes does not apply to JSON answers" ||
    bad "--max-event-bytes 10 broke a JSON answer"
"$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.card.name --max-turn-bytes 100 --agent m="$MOCK_URL" \
    >/dev/null 2>"$TMP/cap2.err"
grep -q 'response body larger than max_turn_bytes (100 bytes)' "$TMP/cap2.err" &&
    ok "--max-turn-bytes: the card fails naming the cap" || bad "--max-turn-bytes: $(cat "$TMP/cap2.err")"
# a test citing a requirement the set does not have is exit 2
mkdir -p "$TMP/s/requirements"
cp "$SET" "$TMP/s/requirements/"
jq '.requirements = ["A2A-NOPE-001"]' compliance/a2a/required.card.name.jsont >"$TMP/s/t.jsont"
"$ANANKE" comply --protocol a2a --spec 0.3.0 --agent m="$MOCK_URL" "$TMP/s" >/dev/null 2>"$TMP/nope.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "requirement 'A2A-NOPE-001' is not in" "$TMP/nope.err" &&
    ok "an unknown requirement id: exit 2" || bad "unknown requirement id: exit $rc: $(cat "$TMP/nope.err")"
# 7. a card naming another origin is not followed: the JSON-RPC tests fail
#    saying so, and the other origin gets no request (python3's http.server
#    serves a card whose url is the mock's, another port)
if command -v python3 >/dev/null; then
    start other "$MOCK" a2a --version 0.3 --requests "$TMP/other.jsonl"
    mkdir -p "$TMP/www/.well-known"
    jq --arg u "$url/rpc" '.url = $u' <<<'{"name": "n", "description": "d", "version": "1", "protocolVersion": "0.3.0",
        "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []}' \
        >"$TMP/www/.well-known/agent-card.json"
    python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www" >"$TMP/www.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 50); do grep -q 'port [0-9]*' "$TMP/www.out" && break; sleep 0.1; done
    wport=$(grep -o 'port [0-9]*' "$TMP/www.out" | head -n 1 | cut -d' ' -f2)
    "$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.rpc.method-not-found -t required.card.name \
        --agent elsewhere="http://127.0.0.1:$wport" -r json:"$TMP/else.json" >/dev/null 2>&1
    [ "$(status required.card.name "$TMP/else.json")" = pass ] &&
        [ "$(status required.rpc.method-not-found "$TMP/else.json")" = fail ] &&
        jq -e '.agents[0].tests[] | select(.id == "required.rpc.method-not-found") | .unmet[0].message
               | test("is on another origin")' "$TMP/else.json" >/dev/null &&
        ok "a card naming another origin: not followed, said" || bad "a card naming another origin"
    ! grep -q '"POST"' "$TMP/other.jsonl" 2>/dev/null && ok "the other origin got no request" ||
        bad "the other origin got: $(head -c 300 "$TMP/other.jsonl")"
    # the control: the same test sent to that mock directly is logged there
    "$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.rpc.method-not-found --agent direct="$url" >/dev/null 2>&1
    grep -q '"POST"' "$TMP/other.jsonl" && ok "(control: a request to it is logged)" ||
        bad "control: the other mock logged no POST"
fi

# 8. the same suite over the HTTP+JSON (REST) binding
. "$HERE/a2a-rest.sh"
. "$HERE/a2a-v1.sh" # 9. the suite in A2A 1.0, over both bindings

# 6. docs/comply.md's requirement table is the suite's (generated here)
table() {
    echo '| ID | level | requirement | tests |'
    echo '|---|---|---|---|'
    jq -s -r '(.[0].requirements) as $reqs | (.[1:] | map(select((.revisions // ["0.3"]) | index("0.3")))
        | map({id: .file, reqs: .requirements})) as $tests
        | $reqs[] | . as $r
        | [$tests[] | select(.reqs | index($r.id)) | "`\(.id)`"] as $by
        | "| [\($r.id)](\($r.section)) | \($r.level) | \($r.title) | \(if ($by | length) > 0 then ($by | join(", ")) else "not tested" end) |"' \
        "$SET" $(for f in compliance/a2a/*.jsont; do
            jq --arg f "$(basename "$f" .jsont)" '{file: $f, requirements, revisions}' "$f" >"$TMP/t-$(basename "$f")"
            echo "$TMP/t-$(basename "$f")"
        done)
}
table >"$TMP/table.md"
doc=docs/comply.md
awk -v t="$TMP/table.md" '
    /^<!-- \/a2a-requirements -->$/ { while ((getline l < t) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- a2a-requirements -->$/ { skip = 1 }' "$doc" >"$TMP/comply.md"
if [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
    cp "$TMP/comply.md" "$doc"
    ok "$doc: the A2A requirement table rewritten (ANANKE_UPDATE_DOCS=1)"
elif cmp -s "$TMP/comply.md" "$doc"; then
    ok "$doc: the A2A requirement table is current"
else
    bad "$doc: the A2A requirement table is stale: ANANKE_UPDATE_DOCS=1 tests/comply/a2a.sh"
    diff "$doc" "$TMP/comply.md" | head -n 10
fi
finish
