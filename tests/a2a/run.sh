#!/usr/bin/env bash
# ananke's A2A target against agents it did not write:
#   agent.mjs  an agent built on the official A2A SDK (@a2a-js/sdk, npm,
#              pinned in package.json / package-lock.json), serving A2A 1.0
#              and, through the SDK's compatibility layer, 0.3 on one URL;
#              a second instance requires an API key;
#   ananke-mock a2a  the C agent double (src/mock/a2a_agent.c), for the
#              faults the SDK cannot produce (malformed frames, a cut stream,
#              a stream that never ends, wrong ids, HTTP errors), over 1.0
#              (streamed and blocking) and 0.3.
# All bind 127.0.0.1 only. Runs the suites under suite/ with each config
# there, then checks exit codes, the JSON reports' transcripts and the
# requests the agents received with jq. Also a few load errors.
#
# Needs node and tests/a2a/node_modules (scripts/setup.sh runs npm ci here);
# without them this fails, it does not skip. Output lands in tests/a2a/out/.
# Last line: "a2a: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
B=$tests_build
ANANKE="${ANANKE:-$B/ananke}"
export NO_COLOR=1
pass=0 fail=0 suite=a2a # finish, broken: tests/lib.sh

need_node "the agents are Node programs"
need_jq
[ -d "$here/node_modules/@a2a-js/sdk" ] && [ -d "$here/node_modules/express" ] ||
  broken "tests/a2a/node_modules/{@a2a-js/sdk,express} missing: run scripts/setup.sh (npm ci in tests/a2a)"
[ -x "$ANANKE" ] || broken "$ANANKE not built (make build)"
MOCK="${ANANKE_MOCK:-$B/ananke-mock}"
[ -x "$MOCK" ] || broken "$MOCK not built (make build)"

out="$here/out"
rm -rf "$out"; mkdir -p "$out"

pids=()
stop_servers() {
  stop_pids "${pids[@]}"
  pids=()
}
trap stop_servers EXIT

# start NAME SCRIPT ARGS...: a server that writes its port to out/NAME.port;
# it lives at most 5 minutes whatever happens to this script. Its base URL
# is left in $url.
start() {
  local name=$1 script=$2; shift 2
  local cmd=(node "$here/$script")
  [ "$script" = mock ] && cmd=("$MOCK" a2a --port 0)
  spawn_server "$out/$name.port" 0.1 "$out/$name.stdout" "$out/$name.stderr" \
    timeout -k 5 300 "${cmd[@]}" --port-file "$out/$name.port" \
    --requests "$out/server-$name.jsonl" "$@"
  local started=$?
  pids+=("$spawned_pid")
  if [ "$started" -ne 0 ]; then
    sed 's/^/    /' "$out/$name.stderr" >&2
    broken "the $name server did not start within 10 s"
  fi
  touch "$out/server-$name.jsonl"
  url="http://127.0.0.1:$(tr -d '[:space:]' <"$out/$name.port")"
}

start agent agent.mjs; A2A_URL=$url
start auth agent.mjs --api-key s3cret-key; A2A_AUTH_URL=$url
start fault mock; A2A_FAULT_URL=$url
start fault03 mock --version 0.3; A2A_FAULT03_URL=$url
export A2A_URL A2A_AUTH_URL A2A_FAULT_URL A2A_FAULT03_URL A2A_KEY=s3cret-key
servers=(agent auth fault fault03)

# check, jq_true, exit_is (in suite/): tests/lib.sh

# run_cfg NAME CONFIG DIR WANT_EXIT: run one suite with one config; the
# requests the agents got during the run land in out/NAME.requests.jsonl.
run_cfg() {
  local name=$1 cfg=$2 dir=$3 want=$4 f
  local -A before
  for f in "${servers[@]}"; do before[$f]=$(wc -l <"$out/server-$f.jsonl"); done
  check "$name: $dir with $cfg exits $want" \
    exit_is "$want" "$out/$name.log" "$ANANKE" run -c "$cfg" "$dir" --reporter "json:$out/$name.json"
  [ -s "$out/$name.json" ] || echo '{"tests":[]}' >"$out/$name.json"
  : >"$out/$name.requests.jsonl"
  for f in "${servers[@]}"; do
    tail -n +"$((before[$f] + 1))" "$out/server-$f.jsonl" >>"$out/$name.requests.jsonl"
  done
}

defs='def T($n): .tests[] | select(.name == $n) | .transcript;'
statuses='[.tests[] | .status] == ["pass","pass","pass","pass","pass"]'

# ---- the SDK agent: every protocol version and mode --------------------------
for c in ananke:v10 json:v10-json v03:v03 v03-json:v03-json inline:inline endpoint:endpoint; do
  cfg=${c%%:*}.config.yaml name=${c##*:}
  run_cfg "$name" "$cfg" pass 0
  check "$name: five tests pass" jq_true "$out/$name.json" "$statuses"
done

# what each mode sent: method, header, card discovery
methods() { # NAME 'jq filter on the log slurped'
  jq_true "$out/$1.requests.jsonl" "$2" -s
}
check "1.0 streaming: card asked with A2A-Version 1.0, then SendStreamingMessage with 1.0" methods v10 '
  (map(select(.method == "GET")) | length) == 5 and all(.[] | select(.method == "GET"); .version == "1.0")
  and (map(select(.method == "POST") | .body.method) | unique) == ["SendStreamingMessage"]
  and all(.[] | select(.method == "POST"); .version == "1.0" and .accept == "text/event-stream")'
check "1.0 blocking: SendMessage, no configuration (blocking is the default)" methods v10-json '
  (map(select(.method == "POST") | .body.method) | unique) == ["SendMessage"]
  and all(.[] | select(.method == "POST"); .body.params.configuration == null)'
check "0.3 streaming: message/stream, kind on parts, no version header" methods v03 '
  (map(select(.method == "POST") | .body.method) | unique) == ["message/stream"]
  and all(.[] | select(.method == "POST"); .version == null
          and .body.params.message.kind == "message" and .body.params.message.role == "user"
          and all(.body.params.message.parts[]; has("kind")))'
check "0.3 blocking: message/send with configuration.blocking true" methods v03-json '
  (map(select(.method == "POST") | .body.method) | unique) == ["message/send"]
  and all(.[] | select(.method == "POST"); .body.params.configuration.blocking == true)'
check "inline card: no discovery, its 0.3 interface used" methods inline '
  (map(select(.method == "GET")) | length) == 0
  and (map(.body.method) | unique) == ["message/stream"]'
check "endpoint and version: no discovery, SendMessage with acceptedOutputModes" methods endpoint '
  (map(select(.method == "GET")) | length) == 0
  and (map(.body.method) | unique) == ["SendMessage"]
  and all(.[]; .body.params.configuration.acceptedOutputModes == ["text/plain","application/json"])'

for name in v10 v03 v10-json v03-json; do
  check "$name: input-required continued with its taskId and contextId" methods "$name" '
    map(select(.method == "POST")) as $p
    | ($p | map(select(.body.params.message.parts[0].text == "ask:book a flight")) | length) == 1
    and ($p | map(select(.body.params.message.parts[0].text == "from SFO")) | .[0].body.params.message
         | (.taskId | type) == "string" and (.contextId | type) == "string")'
  check "$name: the two turns of the input-required task" jq_true "$out/$name.json" "$defs"'
    T("input required then completed").turns as $t
    | $t[0].task.state == "input-required" and $t[1].task.state == "completed"
    and $t[0].task.id == $t[1].task.id and $t[0].task.contextId == $t[1].task.contextId
    and $t[0].text == "working\nneed more input" and $t[1].text == "working\necho: from SFO"'
  check "$name: artifacts as records, data and file parts as results" jq_true "$out/$name.json" "$defs"'
    T("data and file artifacts").tool_calls | map([.name, .result]) ==
      [["artifact:result", {"echo":"q42","n":3}],
       ["artifact:report", {"url":"http://127.0.0.1/report.csv","mediaType":"text/csv","filename":"report.csv"}]]'
  check "$name: a direct message has no task, a failed task its state" jq_true "$out/$name.json" "$defs"'
    T("direct message").turns[0].task == null and T("direct message").turns[0].text == "echo: hi there"
    and T("failed task").turns[0].task.state == "failed"
    and (T("failed task").turns[0].text | endswith("cannot do: launch the rocket"))'
done
check "1.0 streaming: states with arrival times, in order" jq_true "$out/v10.json" "$defs"'
  T("completed task").turns[0].task.states as $s
  | ($s | map(.state)) == ["submitted","working","completed"]
  and ($s | map(.t_ms) | . == sort) and ($s[0].t_ms > 0)'
check "data parts sent as written: 1.0 {data}, 0.3 {kind: data}" bash -c '
  jq -e -s "map(select(.body.params.message.parts[0].text == \"data:q42\")) | .[0].body.params.message.parts[1] == {\"data\":{\"order\":42}}" "$1" >/dev/null &&
  jq -e -s "map(select(.body.params.message.parts[0].text == \"data:q42\")) | .[0].body.params.message.parts[1] == {\"kind\":\"data\",\"data\":{\"order\":42}}" "$2" >/dev/null' _ \
  "$out/v10.requests.jsonl" "$out/v03.requests.jsonl"

# ---- a slow task: the turn times out, the task is canceled --------------------
for c in slow:CancelTask slow-v03:tasks/cancel; do
  name=${c%%:*} method=${c##*:}
  run_cfg "$name" "$name.config.yaml" slow 1
  check "$name: the test is an error naming the timeout" jq_true "$out/$name.json" '
    .tests[0].status == "error" and .tests[0].error.code == "AN_ETIMEOUT"
    and (.tests[0].error.message | contains("no final task state within 1500 ms (last state: working)"))'
  check "$name: $method sent for the task, which ended canceled" bash -c '
    id=$(jq -r ".tests[0].transcript.turns[0].task.id" "$1")
    jq -e -s --arg id "$id" --arg m "$3" "map(select(.body.method == \$m)) | length == 1 and .[0].body.params.id == \$id" "$2" >/dev/null &&
    jq -e ".tests[0].transcript.turns[0] | .task.state == \"canceled\" and (.warnings | any(contains(\"canceled after the turn timed out\")))" "$1" >/dev/null' _ \
    "$out/$name.json" "$out/$name.requests.jsonl" "$method"
done

# ---- an API key from the environment, in the header the card names -----------
run_cfg auth auth.config.yaml auth 0
check "auth: the key in X-API-Key (from the card), the bearer token in Authorization" methods auth '
  map(select(.method == "POST")) | length == 1
  and .[0].apiKey == "s3cret-key" and .[0].authorization == "Bearer s3cret-key"'
run_cfg noauth noauth.config.yaml auth 1
check "no key: HTTP 401, an error" jq_true "$out/noauth.json" '
  .tests[0].status == "error" and .tests[0].error.code == "AN_EHTTP"
  and (.tests[0].error.message | contains("HTTP 401"))'

# ---- faults: ananke-mock a2a ---------------------------------------------------
fault_statuses='[.tests[] | "\(.status) \(.name)"] | sort ==
  ["error fault cut", "error fault garbage", "error fault hang", "error fault http500",
   "error fault rpcerror", "error fault shape", "error fault wrongid", "pass fault chunks",
   "pass fault open"]'
fault_msg() { # RUN NAME CODE TEXT
  jq_true "$out/$1.json" '.tests[] | select(.name == $n) | .error.code == $c and (.error.message | contains($m))' \
    --arg n "fault $2" --arg c "$3" --arg m "$4"
}
hang_canceled() { # RUN METHOD: the hung task timed out, was canceled with METHOD
  local id
  id=$(jq -r '.tests[] | select(.name == "fault hang") | .transcript.turns[0].task.id' "$out/$1.json")
  jq -e '.tests[] | select(.name == "fault hang") | .error.code == "AN_ETIMEOUT" and .transcript.turns[0].task.state == "canceled"' "$out/$1.json" >/dev/null &&
  jq -e -s --arg id "$id" --arg m "$2" 'map(select(.body.method == $m)) | length == 1 and .[0].body.params.id == $id' \
    "$out/$1.requests.jsonl" >/dev/null
}

# streamed, 1.0
run_cfg faults faults.config.yaml faults 1
check "faults: statuses" jq_true "$out/faults.json" "$fault_statuses"
check "fault garbage: the event that is not JSON" fault_msg faults garbage AN_EPROTO "SSE event #2 is not JSON"
check "fault shape: a result of no known shape" fault_msg faults shape AN_EPROTO "no task, message, statusUpdate or artifactUpdate"
check "fault rpcerror: the JSON-RPC error, though a stream was asked for" fault_msg faults rpcerror AN_ERUN \
  "JSON-RPC error -32004: Unsupported operation: no rockets"
check "fault cut: the last state it reached" fault_msg faults cut AN_ECONNECT "cut before a final task state (last state: working)"
check "fault http500: the status" fault_msg faults http500 AN_EHTTP "HTTP 500"
check "fault wrongid: events under another id" fault_msg faults wrongid AN_EPROTO "SSE event #1 has id 1"
check "fault hang: timed out, then CancelTask" hang_canceled faults CancelTask
check "fault open: the stream left open ends at its final state, not at the timeout" jq_true "$out/faults.json" "$defs"'
  T("fault open").turns[0] | .task.state == "completed" and (.end_ms - .start_ms) < 1000'
check "fault chunks: appended chunks joined in the text and the artifact" jq_true "$out/faults.json" "$defs"'
  T("fault chunks") | .turns[0].text == "Once upon a time"
  and (.tool_calls | map([.name, .result])) == [["artifact:story", "Once upon a time"]]'
check "faults: every request carried A2A-Version: 1.0" methods faults '
  all(.[] | select(.method == "POST"); .headers["a2a-version"] == "1.0")'

# blocking, 1.0: one SendMessage per turn
run_cfg faults-json faults-json.config.yaml faults 1
check "faults-json: statuses" jq_true "$out/faults-json.json" "$fault_statuses"
check "faults-json: SendMessage only" methods faults-json '
  (map(select(.method == "POST") | .body.method) | unique) == ["SendMessage"]'
check "fault garbage (blocking): the body that is not JSON" fault_msg faults-json garbage AN_EPROTO "the answer is not JSON"
check "fault shape (blocking)" fault_msg faults-json shape AN_EPROTO "no task, message, statusUpdate or artifactUpdate"
check "fault cut (blocking): no answer at all" fault_msg faults-json cut AN_ECONNECT "Empty reply from server"
check "fault hang (blocking): no final state in time" fault_msg faults-json hang AN_ETIMEOUT "no final task state within 1500 ms"
check "fault wrongid (blocking): the answer under another id" fault_msg faults-json wrongid AN_EPROTO "the answer has id 1"
check "fault http500 (blocking)" fault_msg faults-json http500 AN_EHTTP "HTTP 500"
# the stored artifact holds the chunks as three parts (the SDK's aggregation):
# it reads as the stream did, text parts glued with no separator
check "fault chunks (blocking): the stored artifact reads as the stream" jq_true "$out/faults-json.json" "$defs"'
  T("fault chunks") | .turns[0].text == "Once upon a time"
  and (.tool_calls | map([.name, .result])) == [["artifact:story", "Once upon a time"]]'

# streamed, 0.3: message/stream, kind on results, tasks/cancel
run_cfg faults-v03 faults-v03.config.yaml faults 1
check "faults-v03: statuses" jq_true "$out/faults-v03.json" "$fault_statuses"
check "faults-v03: message/stream, no A2A-Version header" methods faults-v03 '
  (map(select(.method == "POST") | .body.method) | unique) == ["message/stream", "tasks/cancel"]
  and all(.[] | select(.method == "POST"); .headers["a2a-version"] == null)'
check "fault garbage (0.3)" fault_msg faults-v03 garbage AN_EPROTO "SSE event #2 is not JSON"
check "fault cut (0.3)" fault_msg faults-v03 cut AN_ECONNECT "cut before a final task state (last state: working)"
check "fault wrongid (0.3)" fault_msg faults-v03 wrongid AN_EPROTO "SSE event #1 has id 1"
check "fault hang (0.3): timed out, then tasks/cancel" hang_canceled faults-v03 tasks/cancel
check "fault chunks (0.3)" jq_true "$out/faults-v03.json" "$defs"'
  T("fault chunks") | .turns[0].text == "Once upon a time"'

# ---- load errors --------------------------------------------------------------
tmp="$out/load"
mkdir -p "$tmp"
load_err() { # NAME CONFIG_TARGET_YAML TEST_YAML WANT
  local d="$tmp/$1"
  mkdir -p "$d"
  printf 'version: "1.0"\ntarget:\n%s\n' "$2" >"$d/ananke.config.yaml"
  printf 'version: "1.0"\nturns:\n%s\n' "$3" >"$d/t.test.yaml"
  local log
  log=$(cd "$d" && "$ANANKE" validate 2>&1)
  local rc=$?
  [ "$rc" = 2 ] && grep -qF -- "$4" <<<"$log" && return 0
  echo "exit $rc, want 2 and: $4"; echo "$log" | head -n 10
  return 1
}
ok_turn='  - user: "hi"'
check "load: a2a:send needs an a2a target" load_err send-agui \
  '  type: agui
  endpoint: http://127.0.0.1:9/
  agentId: a' '  - type: a2a:send
    message: hi' "an a2a:send turn needs an a2a target (the config's target is agui)"
check "load: no card, no endpoint" load_err nothing '  type: a2a' "$ok_turn" \
  "an a2a target needs 'agentCardUrl', 'agentCard' or 'endpoint'"
check "load: both card keys" load_err both \
  '  type: a2a
  agentCardUrl: http://127.0.0.1:9/.well-known/agent-card.json
  agentCard: {name: x}' "$ok_turn" "'agentCardUrl' or 'agentCard', not both"
check "load: unknown version" load_err version \
  '  type: a2a
  endpoint: http://127.0.0.1:9/
  version: "0.2"' "$ok_turn" "unknown A2A version '0.2' (one of: auto, 1.0, 0.3)"
check "load: a2a:send without message or parts" load_err empty-send \
  '  type: a2a
  endpoint: http://127.0.0.1:9/' '  - type: a2a:send' "an a2a:send turn needs 'message' or 'parts'"
check "load: a part of no known shape" load_err bad-part \
  '  type: a2a
  endpoint: http://127.0.0.1:9/' '  - type: a2a:send
    parts: [{image: x}]' "an A2A part needs 'text', 'data', 'url' or 'raw'"
check "load: task_state with an unknown state" load_err bad-state \
  '  type: a2a
  endpoint: http://127.0.0.1:9/' '  - user: hi
    assert:
      checks: [{type: task_state, value: done}]' "unknown task state 'done'"

# ---- the HTTP+JSON (REST) binding ------------------------------------------------
. "$here/rest.sh"

stop_servers
for f in "${servers[@]}"; do
  check "server $f: nothing on its stderr" test ! -s "$out/$f.stderr"
done
finish
