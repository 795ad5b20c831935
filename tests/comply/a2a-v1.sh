# shellcheck shell=bash
# `ananke comply --protocol a2a` in A2A 1.0 (--spec 1.0, the default: the
# newest revision the suite knows) over JSON-RPC and REST; sourced by
# tests/comply/a2a.sh (its start, status, req, ok, bad, $TMP, $ANANKE,
# $MOCK, $AGENT_JS):
#  1. the default revision is 1.0; the 1.0 set holds the 1.0-only
#     requirements; --spec 0.3.0 leaves the 1.0 tests NA;
#  2. ananke-mock a2a (1.0, both bindings): clean, every test that runs
#     PASS over each binding, the requests in the 1.0 shape (A2A-Version:
#     1.0, SendMessage, REST at the root);
#  3. once per fault, over JSON-RPC (and some over REST): the test citing
#     the broken requirement FAILs, the requirement is not_met;
#  4. an agent offering 0.3 only: negotiated down, no failure, the 1.0
#     tests NA saying so;
#  5. the SDK agent (tests/a2a/agent.mjs --rest, @a2a-js/sdk 1.3.0, which
#     serves 1.0 natively): the 1.0 tests PASS over both bindings, and it
#     fails only its known 1.0 deviations;
#  6. docs/comply.md's 1.0 requirement table is the suite's;
#  7. a 1.0 card whose interface names another origin is not followed.

SET1=compliance/a2a/requirements/1.0.json

# 1. the revisions
jq -e '[.requirements[].id] as $ids | (["A2A-VER-001", "A2A-VER-002", "A2A-VER-003", "A2A-CARD-101", "A2A-LIST-001"]
       | all(. as $i | $ids | index($i))) and ($ids | index("A2A-CARD-004") | not)' "$SET1" >/dev/null &&
    ok "v1: the 1.0 set has the 1.0-only requirements" || bad "v1: the 1.0 set"
start v1mock "$MOCK" a2a --binding both --requests "$TMP/v1mock.jsonl"
V1_MOCK=$url
"$ANANKE" comply --protocol a2a -j 4 --timeout-scale 0.3 --agent m="$V1_MOCK" -r json:"$TMP/v1.json" \
    >"$TMP/v1.md" 2>"$TMP/v1.err"
rc=$?
[ "$rc" -eq 0 ] && ok "v1 mock: exit 0" || { bad "v1 mock: exit $rc (want 0)"; grep FAIL "$TMP/v1.err" | head -n 5; }
[ "$(jq -r .spec "$TMP/v1.json")" = 1.0 ] && ok "v1: the default revision is 1.0" || bad "v1: spec $(jq -r .spec "$TMP/v1.json")"
grep -q '^## Requirements (spec revision 1.0)' "$TMP/v1.md" && ok "v1 md: requirements of 1.0" || bad "v1 md: requirements section"
"$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.v1.card.interfaces -t required.card.name --agent m="$V1_MOCK" \
    -r json:"$TMP/v1-03.json" >/dev/null 2>&1
[ "$(status required.v1.card.interfaces "$TMP/v1-03.json")" = na ] && [ "$(status required.card.name "$TMP/v1-03.json")" = pass ] &&
    jq -e '.agents[0].tests[] | select(.id == "required.v1.card.interfaces") | .na_reason | test("this run judges revision 0.3.0")' \
        "$TMP/v1-03.json" >/dev/null && ok "--spec 0.3.0: a 1.0 test is NA" || bad "--spec 0.3.0: $(jq -c '.agents[0].tests' "$TMP/v1-03.json" | head -c 400)"

mkdir -p "$TMP/badrev/requirements"
cp "$SET1" "$TMP/badrev/requirements/"
jq '.revisions = ["2.0"]' compliance/a2a/required.card.name.jsont >"$TMP/badrev/t.jsont"
"$ANANKE" comply --protocol a2a --agent m="$V1_MOCK" "$TMP/badrev" >/dev/null 2>"$TMP/badrev.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "'revisions' lists \"0.3\" and \"1.0\" (A2A), not '2.0'" "$TMP/badrev.err" &&
    ok "v1: a bad 'revisions' value is exit 2 naming it" || bad "v1: bad revisions: exit $rc: $(cat "$TMP/badrev.err")"

# 2. the clean 1.0 mock, both bindings
for b in jsonrpc rest; do
    sel=".agents[] | select(.binding == \"$b\")"
    jq -e "[$sel | .tests[] | select(.status == \"fail\")] | length == 0" "$TMP/v1.json" >/dev/null &&
        ok "v1 mock ($b): no test fails" || bad "v1 mock ($b): $(grep FAIL "$TMP/v1.err" | head -n 3)"
    jq -e "$sel | .tests[] | select(.id == \"required.v1.version-unsupported\") | .status == \"pass\"" "$TMP/v1.json" >/dev/null &&
        ok "v1 mock ($b): the version test PASS" || bad "v1 mock ($b): version test"
    jq -e "$sel | .tests[] | select(.id == \"required.card.url\") | .status == \"na\"" "$TMP/v1.json" >/dev/null &&
        ok "v1 mock ($b): a 0.3-only test is NA" || bad "v1 mock ($b): required.card.url not NA"
done
jq -e '.agents[] | select(.binding == "jsonrpc") | .tests | map(select(.id | startswith("required.v1."))) | all(.status == "pass")' \
    "$TMP/v1.json" >/dev/null && ok "v1 mock: every 1.0 test PASS over JSON-RPC" || bad "v1 mock: 1.0 tests over JSON-RPC"
jq 'select(.method == "POST" and .path == "/rpc") | .body | (if type == "string" then (try fromjson catch {}) else . end)
     | objects | .method' "$TMP/v1mock.jsonl" | sort -u >"$TMP/v1-methods"
grep -q '"SendMessage"' "$TMP/v1-methods" && grep -q '"CancelTask"' "$TMP/v1-methods" &&
    ! grep -q '"message/send"' "$TMP/v1-methods" && ok "v1 mock: JSON-RPC requests in 1.0 names" ||
    bad "v1 mock: methods $(tr '\n' ' ' <"$TMP/v1-methods")"
jq -e -s '[.[] | select(.path == "/rpc" or (.path | startswith("/rest/")))] | length > 50 and
          all(.headers | to_entries | any((.key | ascii_downcase) == "a2a-version"))' "$TMP/v1mock.jsonl" >/dev/null &&
    ok "v1 mock: every request says A2A-Version" || bad "v1 mock: a request without A2A-Version"
grep -q '"/rest/message:send"' "$TMP/v1mock.jsonl" && ! grep -q '"/rest/v1/' "$TMP/v1mock.jsonl" &&
    ok "v1 mock: REST at the 1.0 root paths" || bad "v1 mock: REST paths"

# 3. the faults, in 1.0: FAULT BINDING TEST REQUIREMENT [DIFF]
v1fault() {
    local f=$1 b=$2 t=$3 r=$4 diff=${5:-}
    start "v1-$f-$b" "$MOCK" a2a --binding both --fault "$f"
    "$ANANKE" comply --protocol a2a --binding "$b" -j 4 --timeout-scale 0.3 --agent "$f=$url" \
        -r json:"$TMP/v1-$f-$b.json" >"$TMP/v1-$f-$b.md" 2>"$TMP/v1-$f-$b.err"
    local rc=$? j=$TMP/v1-$f-$b.json
    [ "$rc" -eq 1 ] && ok "v1 $f ($b): exit 1" || bad "v1 $f ($b): exit $rc (want 1)"
    [ "$(status "$t" "$j")" = fail ] && ok "v1 $f ($b): $t FAIL" || bad "v1 $f ($b): $t $(status "$t" "$j")"
    jq -e --arg t "$t" --arg r "$r" '.agents[0].tests[] | select(.id == $t) | .requirements | index($r)' "$j" \
        >/dev/null && ok "v1 $f ($b): $t cites $r" || bad "v1 $f ($b): $t does not cite $r"
    [ "$(req "$r" "$j")" = not_met ] && ok "v1 $f ($b): $r not_met" || bad "v1 $f ($b): $r $(req "$r" "$j")"
    [ "$(req A2A-CARD-003 "$j")" = met ] && ok "v1 $f ($b): the rest still met" || bad "v1 $f ($b): A2A-CARD-003"
    [ -z "$diff" ] || grep -q "^comply: $f $t FAIL (.*): $diff" "$TMP/v1-$f-$b.err" &&
        ok "v1 $f ($b): says '$diff'" || bad "v1 $f ($b): $(grep "$t" "$TMP/v1-$f-$b.err")"
}
v1fault version-ignored jsonrpc required.v1.version-unsupported A2A-VER-001 \
    "response.error.code: expected -32009, got -32001"
v1fault version-ignored rest required.v1.version-unsupported A2A-VER-001 \
    "response.error.code: expected -32009, got -32001"
v1fault card-bad-interface jsonrpc required.v1.card.interfaces A2A-CARD-101
v1fault v03-states jsonrpc required.v1.send.shapes A2A-VER-002 \
    'response.result.task.status.state: expected /^TASK_STATE_(SUBMITTED|WORKING|COMPLETED)$/, got "completed"'
[ "$(status required.v1.stream.shapes "$TMP/v1-v03-states-jsonrpc.json")" = fail ] &&
    [ "$(req A2A-VER-003 "$TMP/v1-v03-states-jsonrpc.json")" = not_met ] &&
    ok "v1 v03-states: the stream shapes test FAIL too, A2A-VER-003 not_met" || bad "v1 v03-states: stream shapes"
v1fault list-empty jsonrpc required.v1.list-tasks A2A-LIST-001
# the 0.3 suite's faults, caught in the 1.0 shape
v1fault bad-transition jsonrpc required.stream.transitions A2A-TASK-010
v1fault bad-transition rest required.stream.transitions A2A-TASK-010
v1fault wrong-error-code jsonrpc required.get.not-found A2A-ERR-001 "response.error.code: expected -32001, got -32603"
v1fault card-no-name rest required.card.name A2A-CARD-002 "missing field 'response.name'"

# 4. an agent offering 0.3 only, judged against 1.0: negotiated down
start v1-old "$MOCK" a2a --version 0.3 --binding both
"$ANANKE" comply --protocol a2a -j 4 --timeout-scale 0.3 --agent old="$url" -r json:"$TMP/v1-old.json" \
    >/dev/null 2>"$TMP/v1-old.err"
rc=$?
[ "$rc" -eq 0 ] && ok "v1 0.3-only agent: exit 0 (negotiated down)" || bad "v1 0.3-only agent: exit $rc: $(grep FAIL "$TMP/v1-old.err" | head -n 3)"
jq -e '.spec == "1.0" and (.agents | length == 2) and all(.agents[]; (.tests[] | select(.id == "required.v1.card.interfaces")
       | .status == "na" and (.na_reason | test("negotiated down"))) and
       ((.tests[] | select(.id == "required.card.url") | .status) == "pass") and
       (.requirements["A2A-VER-001"].status == "not_tested"))' "$TMP/v1-old.json" >/dev/null &&
    ok "v1 0.3-only agent: the 1.0 tests NA saying why, the 0.3 ones run" || bad "v1 0.3-only agent: report"

# 5. the SDK agent in 1.0 (its slow task runs 20 s: cancel tests stop it)
start v1-sdk node "$AGENT_JS" --rest
"$ANANKE" comply --protocol a2a -j 4 --agent sdk="$url" -r json:"$TMP/v1-sdk.json" >"$TMP/v1-sdk.md" 2>"$TMP/v1-sdk.err"
rc=$?
# its known 1.0 deviations (docs/comply.md "A2A 1.0"): a message without
# parts taken, "jsonrpc": "1.0" answered -32602 (JSON-RPC only)
[ "$rc" -eq 1 ] && ok "v1 sdk: exit 1 (its known deviations)" || bad "v1 sdk: exit $rc (want 1)"
known_jsonrpc="optional.cancel.twice optional.err.content-type optional.err.extended-card required.rpc.invalid-params-no-parts required.rpc.invalid-request"
known_rest="optional.cancel.twice optional.err.content-type optional.err.extended-card"
for b in jsonrpc rest; do
    sel=".agents[] | select(.binding == \"$b\")"
    got=$(jq -r "[$sel | .tests[] | select(.status == \"fail\") | .id] | sort | join(\" \")" "$TMP/v1-sdk.json")
    want=known_$b
    [ "$got" = "${!want}" ] && ok "v1 sdk ($b): fails only its known deviations" || bad "v1 sdk ($b): fails '$got' (want '${!want}')"
    jq -e "$sel | .tests | map(select(.id | startswith(\"required.v1.\"))) | (length == 5) and
           all(.status == \"pass\" or (.status == \"na\" and (.na_reason | test(\"JSON-RPC binding test\"))))" \
        "$TMP/v1-sdk.json" >/dev/null && ok "v1 sdk ($b): the 1.0 tests PASS" || bad "v1 sdk ($b): 1.0 tests"
done
# what it was sent (its --requests log parses bodies itself, so a broken body
# is not its own answer: a run of its own)
start v1-sdk-log node "$AGENT_JS" --rest --requests "$TMP/v1-sdk.jsonl"
"$ANANKE" comply --protocol a2a -t required.send.task -t required.stream.task-first -t required.cancel.completed \
    --agent sdk="$url" >/dev/null 2>&1
jq -e -s '[.[] | select(.path != "/.well-known/agent-card.json")] | length >= 6 and all(.version == "1.0")
          and any(.body.method == "SendMessage") and any(.body.method == "CancelTask")' \
    "$TMP/v1-sdk.jsonl" >/dev/null && ok "v1 sdk: every request said A2A-Version: 1.0, 1.0 names" ||
    bad "v1 sdk: A2A-Version"
grep -q '"path":"/rest/message:send"' "$TMP/v1-sdk.jsonl" && ok "v1 sdk: REST at the 1.0 root" || bad "v1 sdk: REST paths"

# 7. a 1.0 card whose interface names another origin is not followed
if command -v python3 >/dev/null; then
    start v1-other "$MOCK" a2a --requests "$TMP/v1-other.jsonl"
    mkdir -p "$TMP/www1/.well-known"
    jq -n --arg u "$url/rpc" '{name: "n", description: "d", version: "1", capabilities: {},
        defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: [],
        supportedInterfaces: [{url: $u, protocolBinding: "JSONRPC", protocolVersion: "1.0"}]}' \
        >"$TMP/www1/.well-known/agent-card.json"
    python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www1" >"$TMP/www1.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 50); do grep -q 'port [0-9]*' "$TMP/www1.out" && break; sleep 0.1; done
    wport=$(grep -o 'port [0-9]*' "$TMP/www1.out" | head -n 1 | cut -d' ' -f2)
    "$ANANKE" comply --protocol a2a -t required.v1.send.shapes --agent elsewhere="http://127.0.0.1:$wport" \
        -r json:"$TMP/v1-else.json" >/dev/null 2>&1
    jq -e '.agents[0].tests[0] | .status == "fail" and (.unmet[0].message | test("is on another origin"))' \
        "$TMP/v1-else.json" >/dev/null && ok "v1: a 1.0 interface on another origin: not followed, said" ||
        bad "v1: a 1.0 interface on another origin: $(jq -c '.agents[0].tests[0]' "$TMP/v1-else.json" | head -c 300)"
    ! grep -q '"POST"' "$TMP/v1-other.jsonl" 2>/dev/null && ok "v1: the other origin got no request" ||
        bad "v1: the other origin got: $(head -c 300 "$TMP/v1-other.jsonl")"
fi

# 6. docs/comply.md's 1.0 requirement table is the suite's (generated here)
table_v1() {
    echo '| ID | level | requirement | tests |'
    echo '|---|---|---|---|'
    jq -s -r '(.[0].requirements) as $reqs | (.[1:] | map(select((.revisions // ["1.0"]) | index("1.0")))
        | map({id: .file, reqs: .requirements})) as $tests
        | $reqs[] | . as $r
        | [$tests[] | select(.reqs | index($r.id)) | "`\(.id)`"] as $by
        | "| [\($r.id)](\($r.section)) | \($r.level) | \($r.title) | \(if ($by | length) > 0 then ($by | join(", ")) else "not tested" end) |"' \
        "$SET1" $(for f in compliance/a2a/*.jsont; do
            jq --arg f "$(basename "$f" .jsont)" '{file: $f, requirements, revisions}' "$f" >"$TMP/v1t-$(basename "$f")"
            echo "$TMP/v1t-$(basename "$f")"
        done)
}
table_v1 >"$TMP/table-v1.md"
awk -v t="$TMP/table-v1.md" '
    /^<!-- \/a2a-v1-requirements -->$/ { while ((getline l < t) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- a2a-v1-requirements -->$/ { skip = 1 }' docs/comply.md >"$TMP/comply-v1.md"
if [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
    cp "$TMP/comply-v1.md" docs/comply.md
    ok "docs/comply.md: the A2A 1.0 requirement table rewritten (ANANKE_UPDATE_DOCS=1)"
elif cmp -s "$TMP/comply-v1.md" docs/comply.md; then
    ok "docs/comply.md: the A2A 1.0 requirement table is current"
else
    bad "docs/comply.md: the A2A 1.0 requirement table is stale: ANANKE_UPDATE_DOCS=1 tests/comply/a2a.sh"
    diff docs/comply.md "$TMP/comply-v1.md" | head -n 10
fi
