set -e
# The same caps on an a2a target (ananke-mock a2a, A2A 1.0 streamed): it
# echoes the user's text in an artifact event of about 210 bytes plus the
# text, and the whole stream is about 720 bytes plus the text twice. An
# echo of 400 bytes is one event over max_event_bytes 500 (the stream under
# the default max_turn_bytes); one of 280 has every event under 500 and the
# stream over max_turn_bytes 900. A short echo after each passes.
"$MOCK" a2a --port 0 --port-file out/a2a.port >out/a2a.out 2>out/a2a.err &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null; wait $mock_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s out/a2a.port ] && break; sleep 0.05; done
port=$(cat out/a2a.port)
run() { # CAP_KEY VALUE TEST WANT
  cat > out/a2a.config.yaml <<YAML
version: "1.0"
target:
  type: a2a
  agentCardUrl: "http://127.0.0.1:$port/.well-known/agent-card.json"
  timeout_ms: 5000
  $1: $2
YAML
  set +e
  "$ANANKE" run -c out/a2a.config.yaml "$3" a2a-hi.test.yaml -j 1 -r json:out/a2a.json \
    >out/a2a-$1.run 2>&1
  local rc=$?
  set -e
  [ $rc = 1 ] || { echo "$1: exit $rc, want 1"; cat out/a2a-$1.run; exit 1; }
  grep -qF "$4" out/a2a-$1.run || { echo "$1: no '$4'"; cat out/a2a-$1.run; exit 1; }
  jq -e '[.tests[].status] == ["error", "pass"]' out/a2a.json >/dev/null
}
run max_event_bytes 500 a2a-400.test.yaml 'SSE event larger than max_event_bytes (500 bytes)'
run max_turn_bytes 900 a2a-280.test.yaml 'response body larger than max_turn_bytes (900 bytes)'
