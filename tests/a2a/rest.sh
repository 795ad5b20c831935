# shellcheck shell=bash
# `ananke run` against A2A targets over the HTTP+JSON (REST) binding;
# sourced by tests/a2a/run.sh (its start, run_cfg, check, jq_true, methods,
# $out, $servers):
#   the SDK agent with its REST handler (agent.mjs --rest), 1.0 streamed and
#   0.3 blocking, chosen by `binding: rest`; ananke-mock a2a --binding rest,
#   whose card offers REST only (binding auto takes it); a timed-out task
#   canceled on its REST path; max_turn_bytes over REST.

start rest agent.mjs --rest; A2A_REST_URL=$url
start mockrest mock --binding rest; A2A_MOCK_REST_URL=$url
export A2A_REST_URL A2A_MOCK_REST_URL
servers+=(rest mockrest)

for c in rest:rest rest-v03-json:rest-v03-json rest-auto:rest-auto; do
  cfg=${c%%:*}.config.yaml name=${c##*:}
  run_cfg "$name" "$cfg" pass 0
  check "$name: five tests pass" jq_true "$out/$name.json" "$statuses"
done
check "rest 1.0 streaming: POST /rest/message:stream with A2A-Version 1.0, no JSON-RPC" methods rest '
  map(select(.method == "POST")) as $p
  | ($p | length) == 6 and all($p[]; .path == "/rest/message:stream" and .version == "1.0"
                               and .accept == "text/event-stream" and .body.jsonrpc == null
                               and .body.message.role == "ROLE_USER")'
check "rest 0.3 blocking: POST /rest/v1/message:send, the protobuf JSON of 0.3 (content, ROLE_USER)" methods rest-v03-json '
  map(select(.method == "POST")) as $p
  | ($p | length) == 6 and all($p[]; .path == "/rest/v1/message:send" and .version == null
                               and .body.message.role == "ROLE_USER" and (.body.message.content | length) >= 1
                               and .body.message.parts == null and .body.configuration.blocking == true)'
check "rest: input-required continued with its taskId over REST" methods rest-v03-json '
  map(select(.method == "POST" and .body.message.content[0].text == "from SFO")) | length == 1
  and (.[0].body.message.taskId | type) == "string"'
# (0.3's protobuf FilePart has no name: a file part loses its filename there)
for c in rest:',"filename":"report.csv"' rest-v03-json: rest-auto:',"filename":"report.csv"'; do
  name=${c%%:*} fname=${c#*:}
  check "$name: the two turns of the input-required task" jq_true "$out/$name.json" "$defs"'
    T("input required then completed").turns as $t
    | $t[0].task.state == "input-required" and $t[1].task.state == "completed"
    and $t[0].task.id == $t[1].task.id and $t[1].text == "working\necho: from SFO"'
  check "$name: artifacts as records, data and file parts as results" jq_true "$out/$name.json" "$defs"'
    T("data and file artifacts").tool_calls | map([.name, .result]) ==
      [["artifact:result", {"echo":"q42","n":3}],
       ["artifact:report", {"url":"http://127.0.0.1/report.csv","mediaType":"text/csv"'"$fname"'}]]'
done
check "rest auto: the mock's REST-only card taken, its /rest paths used" methods rest-auto '
  map(select(.method == "POST")) as $p | ($p | length) == 6 and all($p[]; .path == "/rest/message:stream")'

run_cfg rest-slow rest-slow.config.yaml slow 1
check "rest-slow: the test is an error naming the timeout" jq_true "$out/rest-slow.json" '
  .tests[0].status == "error" and .tests[0].error.code == "AN_ETIMEOUT"'
check "rest-slow: POST /rest/v1/tasks/{id}:cancel for the task, which ended canceled" bash -c '
  id=$(jq -r ".tests[0].transcript.turns[0].task.id" "$1")
  jq -e -s --arg p "/rest/v1/tasks/$id:cancel" "map(select(.method == \"POST\" and .path == \$p)) | length == 1" "$2" >/dev/null &&
  jq -e ".tests[0].transcript.turns[0] | .task.state == \"canceled\" and (.warnings | any(contains(\"canceled after the turn timed out\")))" "$1" >/dev/null' _ \
  "$out/rest-slow.json" "$out/rest-slow.requests.jsonl"

run_cfg rest-cap rest-cap.config.yaml pass 1
check "rest-cap: each task's answer an error naming max_turn_bytes, the short message passes" jq_true "$out/rest-cap.json" '
  ([.tests[] | select(.name != "direct message")] | length == 4
   and all(.[]; .status == "error" and (.error.message | contains("max_turn_bytes (300 bytes)"))))
  and (.tests[] | select(.name == "direct message") | .status == "pass")'

# the mock's faults over REST (wrongid is none: REST answers carry no id)
run_cfg rest-faults rest-faults.config.yaml faults 1
check "rest-faults: statuses" jq_true "$out/rest-faults.json" '[.tests[] | "\(.status) \(.name)"] | sort ==
  ["error fault cut", "error fault garbage", "error fault hang", "error fault http500",
   "error fault rpcerror", "error fault shape", "pass fault chunks", "pass fault open", "pass fault wrongid"]'
check "rest-faults: a REST error named by its status and A2A code" fault_msg rest-faults rpcerror AN_EHTTP \
  "the agent answered HTTP 400, A2A error -32004: Unsupported operation: no rockets"
check "rest-faults: the event that is not JSON" fault_msg rest-faults garbage AN_EPROTO "SSE event #2 is not JSON"
check "rest-faults: the hung task canceled on POST /rest/tasks/{id}:cancel" bash -c '
  id=$(jq -r ".tests[] | select(.name == \"fault hang\") | .transcript.turns[0].task.id" "$1")
  jq -e -s --arg p "/rest/tasks/$id:cancel" "map(select(.method == \"POST\" and .path == \$p)) | length == 1" "$2" >/dev/null' _ \
  "$out/rest-faults.json" "$out/rest-faults.requests.jsonl"
