#!/usr/bin/env bash
# OpenTelemetry traces (docs/otel.md) end to end: ananke runs suites with
# --otlp / `otlp:` against a test receiver (receiver.js) that decodes each
# export with the official OpenTelemetry definitions (the protobuf types
# @opentelemetry/otlp-transformer ships, pinned in package.json and
# package-lock.json) or as OTLP JSON, and check.js checks what arrived:
#   - the span tree test -> turn -> tool call, judge under its turn, the
#     tool proxy's tools/call requests, a dynamic test's simulator calls;
#   - GenAI attributes (operation, model, token usage, tool name, call id);
#   - the verdict and findings as span status and events;
#   - a secret (a header built from the environment, echoed by the agent
#     in a tool call's arguments) redacted in what is exported;
#   - the turn's traceparent (and the config's tracestate) in the requests
#     of AG-UI, OpenAI, http and A2A targets, and the judge's and the
#     simulator's own spans in theirs (the mocks log their headers);
#   - both encodings (http/protobuf, http/json), the collector's headers;
#   - a collector that is down, that errs, or that never answers: a
#     warning, the run's exit code unchanged, within the timeout.
# Needs node and tests/otlp/node_modules (scripts/setup.sh runs npm ci
# here); without them this fails. Output lands in tests/otlp/out/.
# Last line: "otlp: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
B=$tests_build
ANANKE="${ANANKE:-$B/ananke}"
MOCK="${ANANKE_MOCK:-$B/ananke-mock}"
export NO_COLOR=1
pass=0 fail=0 suite=otlp # finish, broken: tests/lib.sh

need_node "the receiver is a Node program"
[ -d "$here/node_modules/@opentelemetry/otlp-transformer" ] ||
  broken "tests/otlp/node_modules/@opentelemetry/otlp-transformer missing: run scripts/setup.sh (npm ci in tests/otlp)"
[ -x "$ANANKE" ] || broken "$ANANKE not built (make build)"
[ -x "$MOCK" ] || broken "$MOCK not built (make build)"

out="$here/out"
rm -rf "$out"; mkdir -p "$out"
pids=()
stop_all() { stop_pids "${pids[@]}"; }
trap stop_all EXIT

# start TAG COMMAND...: a server writing its port to $out/TAG.port; its
# URL in $url
start() {
  local tag=$1; shift
  spawn_server "$out/$tag.port" 0.05 "$out/$tag.stdout" "$out/$tag.stderr" "$@"
  local ok=$?
  pids+=("$spawned_pid")
  [ $ok -eq 0 ] || broken "$tag did not start: $(head -c 400 "$out/$tag.stderr")"
  url="http://127.0.0.1:$(cat "$out/$tag.port")"
}

start receiver node "$here/receiver.js" "$out/receiver.port" "$out/spans.jsonl" "$out/collector.jsonl"
RECV=$url
start agui "$MOCK" agui --scenario "$here/suite/agui/scenario.yaml" --port-file "$out/agui.port" --requests "$out/agui-requests.jsonl"
AGUI_URL=$url
start openai "$MOCK" openai --scenario "$here/suite/openai/openai.yaml" --port-file "$out/openai.port" --requests "$out/openai-requests.jsonl"
OPENAI_URL=$url/v1
start judge "$MOCK" openai --scenario "$here/suite/agui/openai.yaml" --port-file "$out/judge.port" --requests "$out/judge-requests.jsonl"
JUDGE_URL=$url/v1
start http "$MOCK" http --scenario "$here/suite/http/http.yaml" --port-file "$out/http.port" --requests "$out/http-requests.jsonl"
HTTP_URL=$url
start a2a "$MOCK" a2a --port-file "$out/a2a.port" --requests "$out/a2a-requests.jsonl"
A2A_URL=$url
start dyn-agent "$MOCK" agui --scenario "$here/suite/dynamic/scenario.yaml" --port-file "$out/dyn-agent.port"
DYN_AGENT_URL=$url
start dyn-sim "$MOCK" openai --scenario "$here/suite/dynamic/openai.yaml" --port-file "$out/dyn-sim.port" --requests "$out/sim-requests.jsonl"
DYN_SIM_URL=$url/v1
export DYN_AGENT_URL DYN_SIM_URL
export AGUI_URL HTTP_URL A2A_URL OTLP_TEST_KEY=sk-otlp-9f8e7d6c5b4a OTLP_TOKEN=tok-collector-1

# run NAME WANT_EXIT DIR [ARGS...]: ananke run in suite/DIR, output in $out/NAME.log
run() {
  local name=$1 want=$2 dir=$3; shift 3
  (cd "$here/suite/$dir" && timeout -k 5 60 "$ANANKE" run "$@") >"$out/$name.log" 2>&1
  local got=$?
  if [ "$got" = "$want" ]; then ok "$name: exit $got"; else
    bad "$name: exit $got, expected $want"; sed 's/^/| /' "$out/$name.log" | head -n 30
  fi
}
# verify NAME WHAT...: check.js over what the receiver and the mocks logged
# since the last verify (then kept aside as $out/WHAT-N.*)
n=0
verify() {
  local name=$1 f; shift
  check "$name" node "$here/check.js" "$out" "$@"
  n=$((n + 1))
  for f in spans collector agui-requests openai-requests http-requests a2a-requests judge-requests sim-requests; do
    [ -f "$out/$f.jsonl" ] && cp "$out/$f.jsonl" "$out/$1-$n.$f.jsonl" && : >"$out/$f.jsonl"
  done
  return 0
}
# fresh: forget what the receiver and the mocks logged so far
fresh() {
  local f
  for f in spans collector agui-requests openai-requests http-requests a2a-requests judge-requests sim-requests; do
    [ -f "$out/$f.jsonl" ] && : >"$out/$f.jsonl"
  done
  return 0
}

# 1. protobuf (the config's protocol), an AG-UI target, a judge
OTLP_URL=$RECV OPENAI_URL=$JUDGE_URL run agui-protobuf 1 agui -r "json:$out/agui-results.json"
verify "agui over http/protobuf: tree, attributes, status, events, redaction, traceparent" agui protobuf

# 2. the same over http/json
sed 's#protocol: http/protobuf#protocol: http/json#' "$here/suite/agui/ananke.config.yaml" >"$out/agui-json.config.yaml"
OTLP_URL=$RECV OPENAI_URL=$JUDGE_URL run agui-json 1 agui -c "$out/agui-json.config.yaml" .
verify "agui over http/json: the same checks" agui json

# 3. --otlp wins over the config's endpoint (here: a path used as is)
OTLP_URL=http://127.0.0.1:9 OPENAI_URL=$OPENAI_URL run openai-cli 0 openai --otlp "$RECV/custom/traces"
verify "openai target, --otlp ENDPOINT with a path: traceparent, tool span" openai

# 4. http (run-case) and A2A targets carry the traceparent too
OTLP_URL=$RECV run http 0 http
verify "http target: traceparent, event tool calls" http
OTLP_URL=$RECV run a2a 0 a2a
verify "a2a target: traceparent on the card and the message" a2a

# 4a. a dynamic test: the simulator's calls are spans of the test
OTLP_URL=$RECV run dynamic 0 dynamic
verify "dynamic test: a span per simulator call, with its reasoning" dynamic

# 4b. tools/call requests through ananke's tool proxy (server_calls)
mods="$here/../mcp/node_modules"
if [ -d "$mods/@modelcontextprotocol/sdk" ] && [ -d "$mods/@modelcontextprotocol/server-everything" ]; then
  # below the ephemeral range, as the tools suite does (tests/tools/port.sh)
  # shellcheck source=../tools/port.sh
  . "$here/../tools/port.sh"
  AGENT_PORT=$(free_port)
  NODE_PATH="$mods" MCP_EVERYTHING="$mods/@modelcontextprotocol/server-everything/dist/index.js" \
    AGENT_PORT=$AGENT_PORT OTLP_URL=$RECV run proxy 0 proxy
  verify "tool proxy: a span per tools/call under its turn" proxy
else
  bad "tests/mcp/node_modules lacks the MCP SDK or server-everything (scripts/setup.sh): the proxy case cannot run"
fi

# 5. without --otlp and otlp.endpoint nothing is traced: no header at all
(cd "$here/suite/openai" && sed '/^otlp:/,$d' ananke.config.yaml >"$out/plain.config.yaml")
OPENAI_URL=$OPENAI_URL run plain 0 openai -c "$out/plain.config.yaml" .
check "no otlp: no traceparent sent" bash -c "! grep -qi traceparent '$out/openai-requests.jsonl' && [ -s '$out/openai-requests.jsonl' ]"

# 6. a collector that is down, errs, or never answers: a warning, same exit
OPENAI_URL=$OPENAI_URL run down 0 openai --otlp http://127.0.0.1:9
check "collector down: a warning naming the endpoint" grep -q "warning: otlp: export to 'http://127.0.0.1:9/v1/traces' failed" "$out/down.log"
OTLP_URL=$RECV OPENAI_URL=$JUDGE_URL run down-failing 1 agui --otlp http://127.0.0.1:9
check "collector down, a failing run: still exit 1, and a warning" grep -q "warning: otlp: export" "$out/down-failing.log"
OPENAI_URL=$OPENAI_URL run fail503 0 openai --otlp "$RECV/fail/traces"
check "collector answers 503: a warning with the status" grep -q "warning: otlp: export .*HTTP 503" "$out/fail503.log"
sed 's/^otlp:/otlp:\n  timeout_ms: 700/' "$here/suite/openai/ananke.config.yaml" >"$here/suite/openai/hang.config.yaml"
t0=$(date +%s%N)
OPENAI_URL=$OPENAI_URL run hang 0 openai -c hang.config.yaml --otlp "$RECV/hang/traces"
took=$(( ($(date +%s%N) - t0) / 1000000 ))
rm -f "$here/suite/openai/hang.config.yaml"
check "collector never answers: otlp.timeout_ms (700 ms) ends the wait ($took ms)" \
  bash -c "grep -q 'warning: otlp: export' '$out/hang.log' && [ $took -lt 5000 ]"

# small batches (max_batch_bytes) to a collector that never answers: one
# timeout, one warning, then nothing more is sent; the total dropped said
cat >"$out/hang-batches.config.yaml" <<EOF
version: "1.0"
target: {type: openai, endpoint: "$OPENAI_URL", model: shop-model, timeout_ms: 5000, tools: [{name: get_weather, result: {city: Paris}}]}
otlp: {endpoint: "$RECV/hang/traces", timeout_ms: 700, max_batch_bytes: 700}
EOF
hang_before=$(grep -c '"/hang/' "$out/collector.jsonl" 2>/dev/null)
t0=$(date +%s%N)
run hang-batches 0 openai -c "$out/hang-batches.config.yaml" .
took=$(( ($(date +%s%N) - t0) / 1000000 ))
hang_after=$(grep -c '"/hang/' "$out/collector.jsonl" 2>/dev/null)
check "after a failed export nothing more is sent: one request, one warning, the spans dropped counted ($took ms)" \
  bash -c "[ \$(grep -c 'warning: otlp: export' '$out/hang-batches.log') = 1 ] &&
           grep -q 'warning: otlp: 3 spans of this run not exported' '$out/hang-batches.log' &&
           [ $((hang_after - hang_before)) = 1 ] && [ $took -lt 5000 ]"

# 7. a bad otlp: value is a load error at its place
printf 'version: "1.0"\ntarget: {type: openai, endpoint: "http://127.0.0.1:9/v1", model: m}\notlp:\n  protocol: grpc\n' >"$out/bad.config.yaml"
run bad-protocol 2 openai -c "$out/bad.config.yaml"
check "bad otlp.protocol: file:line:col" grep -q "bad.config.yaml:4:13: 'protocol' must be 'http/protobuf' or 'http/json', not 'grpc'" "$out/bad-protocol.log"
printf 'version: "1.0"\ntarget: {type: openai, endpoint: "http://127.0.0.1:9/v1", model: m}\notlp:\n  max_batch_bytes: 0\n' >"$out/bad2.config.yaml"
run bad-cap 2 openai -c "$out/bad2.config.yaml"
check "otlp.max_batch_bytes 0: file:line:col" grep -q "bad2.config.yaml:4:20: 'max_batch_bytes' must be at least 1" "$out/bad-cap.log"

printf 'version: "1.0"\ntarget: {type: openai, endpoint: "http://127.0.0.1:9/v1", model: m}\notlp:\n  headers: {Authorization: "Bearer ${ENV.OTLP_UNSET_TOKEN}"}\n' >"$out/bad3.config.yaml"
run unset-env 2 openai -c "$out/bad3.config.yaml" --otlp http://127.0.0.1:9 .
check "an otlp header naming an unset variable: exit 2 at its place" grep -q "bad3.config.yaml:4:28: environment variable 'OTLP_UNSET_TOKEN' is not set" "$out/unset-env.log"
OPENAI_URL=$OPENAI_URL run bad-endpoint 2 openai --otlp ftp://127.0.0.1:4318
check "--otlp with a URL that is not http(s): exit 2, said" grep -q "otlp endpoint 'ftp://127.0.0.1:4318' is not an http(s) URL" "$out/bad-endpoint.log"

# 8. caps: max_attribute_bytes cuts long values, max_batch_bytes splits requests
fresh
cat >"$out/caps.config.yaml" <<EOF
version: "1.0"
target: {type: openai, endpoint: "$OPENAI_URL", model: shop-model, timeout_ms: 5000, tools: [{name: get_weather, result: {city: Paris}}]}
otlp: {endpoint: "$RECV", protocol: http/json, max_attribute_bytes: 8, max_batch_bytes: 1500}
EOF
run caps 0 openai -c "$out/caps.config.yaml" .
verify "caps: attribute values cut at max_attribute_bytes, batches of at most max_batch_bytes" caps

finish
