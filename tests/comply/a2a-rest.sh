# shellcheck shell=bash
# `ananke comply --protocol a2a` over the HTTP+JSON (REST) binding; sourced
# by tests/comply/a2a.sh (its start, status, req, ok, bad, $TMP, $ANANKE,
# $MOCK, $AGENT_JS):
#  1. the SDK agent with its REST handler (tests/a2a/agent.mjs --rest: the
#     SDK's restHandler under /rest, 0.3 through its compatibility layer):
#     --binding rest runs the suite over REST only (the requests it logs go
#     to /rest/v1/..., none to JSON-RPC), every required test PASS or NA,
#     and it fails what it fails over JSON-RPC (the same deviations);
#  2. no --binding and a card offering both: one result per binding, each
#     saying which;
#  3. ananke-mock a2a --binding rest: clean, every test that runs PASS;
#     once per fault, the test citing the broken requirement FAILs over
#     REST, rest-status (every REST error answered 400) caught by the
#     binding's own status check, rest-jsonrpc (JSON-RPC answers on the REST
#     paths) failing every test that sends a REST request;
#  4. a card without a REST interface, and the caps, over REST;
#  5. ListTasks (1.0) over REST, GET /tasks?contextId=...: PASS on the SDK's
#     restHandler and the mock as over JSON-RPC, a contextId that would
#     inject into the query sent percent-encoded, list-empty caught;
#  6. the push notification config methods (set, get, list, delete) over
#     REST on their paths, on the SDK agent with --push and the mock, in 0.3
#     and in 1.0, each with a mock fault caught over REST.

# 1. the SDK agent's REST handler
start sdk-rest node "$AGENT_JS" --rest --requests "$TMP/sdk-rest.jsonl"
SDK_REST=$url
"$ANANKE" comply --protocol a2a --spec 0.3.0 --binding rest -j 4 --agent sdk="$SDK_REST" -r json:"$TMP/sr.json" -r junit:"$TMP/sr.xml" \
    >"$TMP/sr.md" 2>"$TMP/sr.err"
rc=$?
[ "$rc" -eq 0 ] && ok "rest sdk: exit 0" || { bad "rest sdk: exit $rc (want 0)"; tail -n 20 "$TMP/sr.err"; }
jq -e '(.agents | length == 1) and .agents[0].name == "sdk" and .agents[0].binding == "rest"' "$TMP/sr.json" \
    >/dev/null && ok "rest sdk: one result, binding rest" || bad "rest sdk: agents $(jq -c '[.agents[] | [.name, .binding]]' "$TMP/sr.json")"
nreq=$(jq '[.agents[0].tests[] | select(.severity == "required")] | length' "$TMP/sr.json")
npass=$(jq '[.agents[0].tests[] | select(.severity == "required" and (.status == "pass" or .status == "na"))] | length' "$TMP/sr.json")
nrun=$(jq '[.agents[0].tests[] | select(.status == "pass" or .status == "fail")] | length' "$TMP/sr.json")
[ "$nreq" = "$npass" ] && [ "$nrun" -ge 55 ] && ok "rest sdk: $npass/$nreq required PASS or NA, $nrun tests ran" ||
    bad "rest sdk: $npass/$nreq required PASS or NA, $nrun ran (want >= 55)"
for t in optional.cancel.twice optional.err.extended-card optional.err.content-type optional.stream.input-required; do
    st=$(status "$t" "$TMP/sr.json")
    [ "$st" = fail ] && ok "rest sdk: $t FAIL (as over JSON-RPC)" || bad "rest sdk: $t $st (want FAIL)"
done
[ "$(jq '[.agents[0].tests[] | select(.status == "fail")] | length' "$TMP/sr.json")" = 4 ] &&
    ok "rest sdk: only those 4 fail" || bad "rest sdk: $(grep FAIL "$TMP/sr.err" | head -n 5)"
jq -e '.agents[0].tests[] | select(.id == "required.rpc.parse-error") | .status == "na" and (.na_reason | test("JSON-RPC binding"))' \
    "$TMP/sr.json" >/dev/null && ok "rest sdk: a JSON-RPC-only test is NA, said" || bad "rest sdk: required.rpc.parse-error not NA"
grep -q '^- Binding: HTTP+JSON (REST)' "$TMP/sr.md" && ok "rest sdk: md names the binding" || bad "rest sdk: md binding line"
grep -q '<property name="binding" value="rest"/>' "$TMP/sr.xml" && ok "rest sdk: junit names the binding" ||
    bad "rest sdk: junit binding property"
# what the SDK received: REST paths, with the task ids in them, and no JSON-RPC POST
jq -r 'select(.path != "/.well-known/agent-card.json") | .method + " " + .path' "$TMP/sdk-rest.jsonl" >"$TMP/sr.paths"
grep -q '^POST /rest/v1/message:send$' "$TMP/sr.paths" && grep -q '^POST /rest/v1/message:stream$' "$TMP/sr.paths" &&
    grep -Eq '^GET /rest/v1/tasks/[0-9a-f-]+$' "$TMP/sr.paths" && grep -Eq '^POST /rest/v1/tasks/[0-9a-f-]+:cancel$' "$TMP/sr.paths" &&
    grep -Eq '^GET /rest/v1/tasks/[0-9a-f-]+:subscribe$' "$TMP/sr.paths" &&
    ok "rest sdk: send, stream, get, cancel, subscribe on their REST paths" || bad "rest sdk: paths: $(sort -u "$TMP/sr.paths" | head -n 8)"
! grep -qv '^[A-Z]* /rest/' "$TMP/sr.paths" && ok "rest sdk: nothing sent to the JSON-RPC URL" ||
    bad "rest sdk: outside /rest: $(grep -v '^[A-Z]* /rest/' "$TMP/sr.paths" | head -n 3)"

# 2. both bindings offered, none asked for: a result per binding
"$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 -t required.get.not-found -t required.rpc.string-id --agent sdk="$SDK_REST" \
    -r json:"$TMP/both.json" >"$TMP/both.md" 2>"$TMP/both.err"
rc=$?
[ "$rc" -eq 0 ] && ok "both: exit 0" || bad "both: exit $rc"
jq -e '[.agents[] | [.name, .binding]] == [["sdk (jsonrpc)", "jsonrpc"], ["sdk (rest)", "rest"]]' "$TMP/both.json" >/dev/null &&
    ok "both: 'sdk (jsonrpc)' and 'sdk (rest)', each with its binding" || bad "both: $(jq -c '[.agents[] | [.name, .binding]]' "$TMP/both.json")"
jq -e '.agents[0].tests[] | select(.id == "required.rpc.string-id") | .status == "pass"' "$TMP/both.json" >/dev/null &&
    jq -e '.agents[1].tests[] | select(.id == "required.rpc.string-id") | .status == "na"' "$TMP/both.json" >/dev/null &&
    ok "both: a JSON-RPC test runs once, over JSON-RPC" || bad "both: string-id statuses"
grep -q '^comply: sdk (rest) required.get.not-found PASS' "$TMP/both.err" && ok "both: the progress line names the binding" ||
    bad "both: progress: $(grep not-found "$TMP/both.err")"

# 3. the mock over REST: clean, then its faults
start mock-rest "$MOCK" a2a --version 0.3 --binding rest
"$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --timeout-scale 0.3 --agent mock="$url" -r json:"$TMP/mr.json" >/dev/null 2>"$TMP/mr.err"
rc=$?
[ "$rc" -eq 0 ] && ok "rest mock: exit 0" || bad "rest mock: exit $rc: $(grep FAIL "$TMP/mr.err" | head -n 3)"
jq -e '(.agents | length == 1) and .agents[0].binding == "rest"
       and ([.agents[0].tests[] | select(.status == "fail")] | length == 0)
       and ([.agents[0].tests[] | select(.status == "pass")] | length >= 55)' "$TMP/mr.json" >/dev/null &&
    ok "rest mock: a card offering REST only runs REST, nothing fails" || bad "rest mock: $(jq -c '[.agents[0].binding, ([.agents[0].tests[] | .status] | group_by(.) | map([.[0], length]))]' "$TMP/mr.json")"
# rest_fault FAULT TEST REQUIREMENT DIFF [MOCK-FLAG]
rest_fault() {
    local f=$1 t=$2 r=$3 diff=$4 more=${5:-}
    # shellcheck disable=SC2086 # more: one flag or none
    start "rest-$f" "$MOCK" a2a --version 0.3 --binding rest --fault "$f" $more
    "$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --timeout-scale 0.3 --agent "$f=$url" -r json:"$TMP/r-$f.json" \
        >"$TMP/r-$f.md" 2>"$TMP/r-$f.err"
    local rc=$?
    [ "$rc" -eq 1 ] && [ "$(status "$t" "$TMP/r-$f.json")" = fail ] && [ "$(req "$r" "$TMP/r-$f.json")" = not_met ] &&
        [ "$(jq -r '.agents[0].binding' "$TMP/r-$f.json")" = rest ] &&
        ok "rest $f: exit 1, $t FAIL over REST, $r not_met" ||
        bad "rest $f: exit $rc, $t $(status "$t" "$TMP/r-$f.json"), $r $(req "$r" "$TMP/r-$f.json")"
    [ -z "$diff" ] || grep -q "^comply: $f $t FAIL (.*): $diff" "$TMP/r-$f.err" && ok "rest $f: says '$diff'" ||
        bad "rest $f: $(grep "$t" "$TMP/r-$f.err")"
}
rest_fault bad-transition required.stream.transitions A2A-TASK-010 ""
rest_fault card-no-name required.card.name A2A-CARD-002 "missing field 'response.name'"
rest_fault wrong-error-code required.get.not-found A2A-ERR-001 "response.error.code: expected -32001, got -32603"
rest_fault push-forgets required.push.get A2A-PUSH-002 "" --push
rest_fault rest-status required.get.not-found A2A-ERR-001 "REST: error -32001 answered with HTTP 400, expected 404"
# rest-jsonrpc (the REST paths answered as JSON-RPC would be): every test
# that sends a REST request fails, but the one that checks only a stream's
# Content-Type; what passes is the card's GETs, the same over both bindings
start rest-jsonrpc "$MOCK" a2a --version 0.3 --binding rest --fault rest-jsonrpc
"$ANANKE" comply --protocol a2a --spec 0.3.0 -j 4 --timeout-scale 0.3 --agent rj="$url" -r json:"$TMP/rj.json" >/dev/null 2>&1
card_only=$(for f in compliance/a2a/*.jsont; do
    jq -e 'all(.steps[]; .http.path != null) and ((.revisions // ["0.3"]) | index("0.3"))' "$f" >/dev/null && basename "$f" .jsont
done | sort | tr '\n' ' ')
passed=$(jq -r '.agents[0].tests[] | select(.status == "pass") | .id' "$TMP/rj.json" | grep -vx required.stream.content-type |
    sort | tr '\n' ' ')
nfailed=$(jq '[.agents[0].tests[] | select(.status == "fail")] | length' "$TMP/rj.json")
[ -n "$card_only" ] && [ "$passed" = "$card_only" ] && [ "$nfailed" -ge 45 ] &&
    ok "rest-jsonrpc: every REST-request test fails ($nfailed), the card's GETs pass" ||
    bad "rest-jsonrpc: passed '$passed', card-only '$card_only', $nfailed failed"
# the same fault on a card offering both: only the REST result fails
start rest-status-both "$MOCK" a2a --version 0.3 --binding both --fault rest-status
"$ANANKE" comply --protocol a2a --spec 0.3.0 -t required.get.not-found --agent m="$url" -r json:"$TMP/rsb.json" >/dev/null 2>&1
jq -e '[.agents[] | [.binding, .tests[0].status]] == [["jsonrpc", "pass"], ["rest", "fail"]]' "$TMP/rsb.json" >/dev/null &&
    ok "rest-status, both bindings: JSON-RPC passes, REST fails" || bad "rest-status both: $(jq -c '[.agents[] | [.binding, .tests[0].status]]' "$TMP/rsb.json")"

# 4. a card without REST, asked for REST; the caps over REST
"$ANANKE" comply --protocol a2a --spec 0.3.0 --binding rest -t required.get.not-found --agent m="$MOCK_URL" -r json:"$TMP/norest.json" \
    >/dev/null 2>&1
[ $? -eq 1 ] && jq -e '.agents[0].tests[0].unmet[0].message | test("no REST URL to send to: the agent card names no HTTP\\+JSON")' \
    "$TMP/norest.json" >/dev/null && ok "--binding rest, no REST on the card: the test fails saying so" ||
    bad "--binding rest without REST: $(jq -c '.agents[0].tests[0].unmet' "$TMP/norest.json")"
"$ANANKE" comply --protocol a2a --spec 0.3.0 --binding rest -t required.stream.final-last --max-event-bytes 40 --agent m="$SDK_REST" \
    >/dev/null 2>"$TMP/rcap.err"
grep -q 'required.stream.final-last FAIL (.*): the answer was: .*an SSE event larger than max_event_bytes (40 bytes)' "$TMP/rcap.err" &&
    ok "rest: --max-event-bytes names the cap" || bad "rest --max-event-bytes: $(cat "$TMP/rcap.err")"
# (the card, 975 bytes, fits; the stream of 'hello', 1264, does not)
"$ANANKE" comply --protocol a2a --spec 0.3.0 --binding rest -t required.stream.transitions --max-turn-bytes 1100 --agent m="$SDK_REST" \
    >/dev/null 2>"$TMP/rcap2.err"
grep -q 'required.stream.transitions FAIL (.*): the answer was: .*response body larger than max_turn_bytes (1100 bytes)' "$TMP/rcap2.err" &&
    ok "rest: --max-turn-bytes names the cap" || bad "rest --max-turn-bytes: $(cat "$TMP/rcap2.err")"
"$ANANKE" comply --protocol a2a --spec 0.3.0 --binding grpc --agent m="$MOCK_URL" >/dev/null 2>"$TMP/bg.err"
[ $? -eq 2 ] && grep -q -- "--binding takes jsonrpc or rest, not 'grpc'" "$TMP/bg.err" && ok "--binding grpc: exit 2" ||
    bad "--binding grpc: $(cat "$TMP/bg.err")"

# 5. ListTasks (A2A 1.0) over REST: GET /tasks, its params in the query,
# each percent-encoded. The SDK's restHandler serves it: the test passes
# over REST as over JSON-RPC (no --binding: both), and the SDK received
# GET /rest/tasks?contextId=<the thread's id>
start v1-sdk-rest node "$AGENT_JS" --rest --requests "$TMP/v1lt.jsonl"
"$ANANKE" comply --protocol a2a -t required.v1.list-tasks --agent sdk="$url" -r json:"$TMP/v1lt.json" >/dev/null 2>"$TMP/v1lt.err"
rc=$?
[ "$rc" -eq 0 ] && jq -e '[.agents[] | [.binding, (.tests[] | select(.id == "required.v1.list-tasks") | .status)]]
        == [["jsonrpc", "pass"], ["rest", "pass"]]' "$TMP/v1lt.json" >/dev/null &&
    ok "rest ListTasks, sdk: PASS over JSON-RPC and over REST" ||
    bad "rest ListTasks, sdk: exit $rc: $(jq -c '[.agents[] | [.binding, .tests[0].status, .tests[0].unmet]]' "$TMP/v1lt.json" | head -c 400)"
jq -r 'select(.method == "GET" and (.path == "/rest/tasks")) | .url' "$TMP/v1lt.jsonl" >"$TMP/v1lt.urls"
grep -Eqx '/rest/tasks\?contextId=[0-9a-f-]+' "$TMP/v1lt.urls" && ok "rest ListTasks, sdk: GET /rest/tasks?contextId=..." ||
    bad "rest ListTasks, sdk: urls '$(tr '\n' ' ' <"$TMP/v1lt.urls")'"
# a contextId that would add a parameter, a fragment or a segment were it
# not encoded: the same test with it finds the task (an injected
# pageSize=0 or a cut at '#' would filter on another context)
mkdir -p "$TMP/hostile/requirements"
cp compliance/a2a/requirements/1.0.json "$TMP/hostile/requirements/"
hostile='${threadId}&pageSize=0#/../x?%41+;'
jq --arg c "$hostile" --arg re '^${threadId}&pageSize=0#/\.\./x\?%41\+;$' '
    .steps[0].http.json.params.message.contextId = $c | .steps[1].http.json.params.contextId = $c
    | .steps[1].http.expect.response.result.tasks[0].contextId = $re' \
    compliance/a2a/required.v1.list-tasks.jsont >"$TMP/hostile/list.jsont"
"$ANANKE" comply --protocol a2a --agent sdk="$url" -r json:"$TMP/v1lth.json" "$TMP/hostile" >/dev/null 2>"$TMP/v1lth.err"
rc=$?
[ "$rc" -eq 0 ] && jq -e '[.agents[] | [.binding, .tests[0].status]] == [["jsonrpc", "pass"], ["rest", "pass"]]' "$TMP/v1lth.json" >/dev/null &&
    ok "rest ListTasks, sdk: a contextId with & # / ? % + ; is one query value" ||
    bad "rest ListTasks hostile, sdk: exit $rc: $(jq -c '[.agents[] | [.binding, .tests[0].unmet]]' "$TMP/v1lth.json" | head -c 400)"
last=$(jq -r 'select(.method == "GET" and .path == "/rest/tasks") | .url' "$TMP/v1lt.jsonl" | tail -n 1)
grep -Eqx '/rest/tasks\?contextId=[0-9a-f-]+%26pageSize%3D0%23%2F\.\.%2Fx%3F%2541%2B%3B' <<<"$last" &&
    ok "rest ListTasks, sdk: the hostile contextId sent percent-encoded" || bad "rest ListTasks hostile: sent '$last'"
# the mock (1.0, REST only): the same, and its list-empty fault caught over REST
for f in none list-empty; do
    start "v1-lt-$f" "$MOCK" a2a --binding rest --fault "$f"
    "$ANANKE" comply --protocol a2a -t required.v1.list-tasks --agent "m=$url" -r json:"$TMP/v1lt-$f.json" >/dev/null 2>"$TMP/v1lt-$f.err"
    rc=$?
    want=pass want_rc=0
    [ "$f" = none ] || want=fail want_rc=1
    [ "$rc" -eq "$want_rc" ] && [ "$(jq -r '.agents[0].binding' "$TMP/v1lt-$f.json")" = rest ] &&
        [ "$(status required.v1.list-tasks "$TMP/v1lt-$f.json")" = "$want" ] &&
        { [ "$f" = none ] || [ "$(req A2A-LIST-001 "$TMP/v1lt-$f.json")" = not_met ]; } &&
        ok "rest ListTasks, mock --fault $f: $want over REST" || bad "rest ListTasks, mock --fault $f: exit $rc, $(status required.v1.list-tasks "$TMP/v1lt-$f.json")"
    "$ANANKE" comply --protocol a2a --agent "m=$url" -r json:"$TMP/v1lth-$f.json" "$TMP/hostile" >/dev/null 2>&1
    [ "$(status list "$TMP/v1lth-$f.json")" = "$want" ] && ok "rest ListTasks, mock --fault $f: the hostile contextId $want" ||
        bad "rest ListTasks, mock --fault $f: hostile $(jq -c '.agents[0].tests[0] | [.status, .unmet]' "$TMP/v1lth-$f.json" | head -c 300)"
done

# 6. the push notification config methods over REST (0.3: the 1.0 ones
# take the 0.3 params, docs/comply.md): set, get, list and delete PASS on
# the mock with --push, and each has a fault caught over REST:
# push-set-bare (set), push-forgets (get and list), push-delete-ignored (delete)
PUSH_T="-t required.push.set -t required.push.get -t optional.push.list -t optional.push.delete"
start push-rest "$MOCK" a2a --version 0.3 --binding rest --push --requests "$TMP/push-rest.jsonl"
# shellcheck disable=SC2086 # PUSH_T: flags
"$ANANKE" comply --protocol a2a --spec 0.3.0 $PUSH_T --agent "m=$url" -r json:"$TMP/push.json" >/dev/null 2>"$TMP/push.err"
rc=$?
[ "$rc" -eq 0 ] && jq -e '.agents[0].binding == "rest" and (.agents[0].tests | length == 4) and all(.agents[0].tests[]; .status == "pass")' \
    "$TMP/push.json" >/dev/null && ok "rest push: set, get, list, delete PASS over REST" ||
    bad "rest push: exit $rc: $(grep -v PASS "$TMP/push.err" | head -n 3)"
jq -r 'select(.path | test("pushNotificationConfigs")) | .method + " " + .path' "$TMP/push-rest.jsonl" | sed -E 's#/tasks/[^/]+/#/tasks/T/#' |
    sort -u >"$TMP/push.paths"
[ "$(tr '\n' ',' <"$TMP/push.paths")" = "DELETE /rest/v1/tasks/T/pushNotificationConfigs/ananke-cfg,GET /rest/v1/tasks/T/pushNotificationConfigs,GET /rest/v1/tasks/T/pushNotificationConfigs/ananke-cfg,POST /rest/v1/tasks/T/pushNotificationConfigs," ] &&
    ok "rest push: each method on its REST path" || bad "rest push: paths $(tr '\n' ',' <"$TMP/push.paths")"
# the SDK agent with push notifications (agent.mjs --push: its
# InMemoryPushNotificationStore) in 0.3, its card offering both bindings:
# the four pass over each, the REST ones on their paths (its 204 to a
# delete, its {} for an empty list read right)
start push-sdk node "$AGENT_JS" --rest --push --requests "$TMP/push-sdk.jsonl"
# shellcheck disable=SC2086 # PUSH_T: flags
"$ANANKE" comply --protocol a2a --spec 0.3.0 $PUSH_T --agent "sdk=$url" -r json:"$TMP/push-sdk.json" >/dev/null 2>"$TMP/push-sdk.err"
rc=$?
[ "$rc" -eq 0 ] && jq -e '[.agents[] | [.binding, ([.tests[] | .status] | unique)]] == [["jsonrpc", ["pass"]], ["rest", ["pass"]]]
        and all(.agents[]; .tests | length == 4)' "$TMP/push-sdk.json" >/dev/null &&
    ok "rest push, sdk: set, get, list, delete PASS over JSON-RPC and REST" ||
    bad "rest push, sdk: exit $rc: $(grep -v PASS "$TMP/push-sdk.err" | head -n 4)"
jq -r 'select(.path | test("pushNotificationConfigs")) | .method + " " + .path' "$TMP/push-sdk.jsonl" |
    sed -E 's#/tasks/[^/]+/#/tasks/T/#' | sort -u | tr '\n' ',' >"$TMP/push-sdk.paths"
[ "$(cat "$TMP/push-sdk.paths")" = "DELETE /rest/v1/tasks/T/pushNotificationConfigs/ananke-cfg,GET /rest/v1/tasks/T/pushNotificationConfigs,GET /rest/v1/tasks/T/pushNotificationConfigs/ananke-cfg,POST /rest/v1/tasks/T/pushNotificationConfigs," ] &&
    ok "rest push, sdk: each method on its REST path" || bad "rest push, sdk: paths $(cat "$TMP/push-sdk.paths")"

# push_fault FAULT TEST REQUIREMENT EXIT (1 when a required test fails)
push_fault() {
    local f=$1 t=$2 r=$3 want_rc=$4 b
    for b in rest jsonrpc; do
        start "push-$f-$b" "$MOCK" a2a --version 0.3 --binding "$b" --push --fault "$f"
        # shellcheck disable=SC2086 # PUSH_T: flags
        "$ANANKE" comply --protocol a2a --spec 0.3.0 $PUSH_T --agent "$f=$url" -r json:"$TMP/push-$f-$b.json" >/dev/null 2>&1
        local rc=$?
        [ "$rc" -eq "$want_rc" ] && [ "$(jq -r '.agents[0].binding' "$TMP/push-$f-$b.json")" = "$b" ] &&
            [ "$(status "$t" "$TMP/push-$f-$b.json")" = fail ] && [ "$(req "$r" "$TMP/push-$f-$b.json")" = not_met ] &&
            ok "push $f ($b): $t FAIL, $r not_met" || bad "push $f ($b): exit $rc, $t $(status "$t" "$TMP/push-$f-$b.json")"
    done
}
push_fault push-set-bare required.push.set A2A-PUSH-001 1
push_fault push-forgets required.push.get A2A-PUSH-002 1
push_fault push-forgets optional.push.list A2A-PUSH-003 1
push_fault push-delete-ignored optional.push.delete A2A-PUSH-004 0

# the same in A2A 1.0 (the default revision), where the params are 1.0's
# (set: the flat TaskPushNotificationConfig; get, delete: {taskId, id};
# list: {taskId}): the SDK agent with --push and the 1.0 mock pass the
# four over both bindings, and the mock's push faults are caught over REST
start push-sdk-v1 node "$AGENT_JS" --rest --push --requests "$TMP/push-sdk-v1.jsonl"
# shellcheck disable=SC2086 # PUSH_T: flags
"$ANANKE" comply --protocol a2a $PUSH_T --agent "sdk=$url" -r json:"$TMP/push-sdk-v1.json" >/dev/null 2>"$TMP/push-sdk-v1.err"
rc=$?
[ "$rc" -eq 0 ] && jq -e '.spec == "1.0" and ([.agents[] | [.binding, ([.tests[] | .status] | unique)]]
        == [["jsonrpc", ["pass"]], ["rest", ["pass"]]]) and all(.agents[]; .tests | length == 4)' "$TMP/push-sdk-v1.json" >/dev/null &&
    ok "rest push 1.0, sdk: set, get, list, delete PASS over JSON-RPC and REST" ||
    bad "rest push 1.0, sdk: exit $rc: $(grep -v PASS "$TMP/push-sdk-v1.err" | head -n 4)"
jq -e -s '[.[] | select((.path | test("pushNotificationConfigs$")) and .method == "POST") | .body]
          | length >= 1 and all(.url == "http://127.0.0.1:9/ananke-push" and .id == "ananke-cfg" and (has("pushNotificationConfig") | not))' \
    "$TMP/push-sdk-v1.jsonl" >/dev/null &&
    jq -e -s '[.[] | select(.path == "/" and .body.method == "GetTaskPushNotificationConfig") | .body.params]
              | length >= 1 and all(.taskId != null and .id == "ananke-cfg")' "$TMP/push-sdk-v1.jsonl" >/dev/null &&
    ok "rest push 1.0, sdk: a flat config POSTed, GetTaskPushNotificationConfig {taskId, id}" ||
    bad "rest push 1.0, sdk: bodies $(jq -c -s '[.[] | select(.path | test("pushNotificationConfigs")) | .body]' "$TMP/push-sdk-v1.jsonl" | head -c 300)"
start push-v1 "$MOCK" a2a --binding both --push
# shellcheck disable=SC2086 # PUSH_T: flags
"$ANANKE" comply --protocol a2a $PUSH_T --agent "m=$url" -r json:"$TMP/push-v1.json" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 0 ] && jq -e '[.agents[] | [.binding, ([.tests[] | .status] | unique)]] == [["jsonrpc", ["pass"]], ["rest", ["pass"]]]' \
    "$TMP/push-v1.json" >/dev/null && ok "rest push 1.0, mock: the four PASS over both bindings" ||
    bad "rest push 1.0, mock: exit $rc, $(jq -c '[.agents[] | [.binding, [.tests[] | [.id, .status]]]]' "$TMP/push-v1.json")"
for row in "push-set-bare required.push.set A2A-PUSH-001" "push-forgets required.push.get A2A-PUSH-002" \
    "push-forgets optional.push.list A2A-PUSH-003" "push-delete-ignored optional.push.delete A2A-PUSH-004"; do
    read -r f t r <<<"$row"
    start "push-v1-$f" "$MOCK" a2a --binding rest --push --fault "$f"
    # shellcheck disable=SC2086 # PUSH_T: flags
    "$ANANKE" comply --protocol a2a $PUSH_T --agent "$f=$url" -r json:"$TMP/push-v1-$f.json" >/dev/null 2>&1
    [ "$(jq -r '.agents[0].binding' "$TMP/push-v1-$f.json")" = rest ] && [ "$(status "$t" "$TMP/push-v1-$f.json")" = fail ] &&
        [ "$(req "$r" "$TMP/push-v1-$f.json")" = not_met ] && ok "push 1.0 $f (rest): $t FAIL, $r not_met" ||
        bad "push 1.0 $f (rest): $t $(status "$t" "$TMP/push-v1-$f.json")"
done
