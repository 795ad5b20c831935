set -e
R="$OUT/requests.jsonl"
# the user turn went to the endpoint, the connect turn to its own route,
# named by the agent's id and the same thread id the bodies carry
sed -n 1p "$R" | jq -e '.path == "/agent"' >/dev/null
sed -n 2p "$R" | jq -e '.path == "/agent/shop/threads/\(.body.threadId)/connect"' >/dev/null
jq -s -e 'map(.body.threadId) | unique | length == 1' "$R" >/dev/null
# ids that are no plain path segment are percent-encoded: a connect route
# that refuses shows the URL it was given
"$MOCK" agui --scenario scenario.yaml --port 0 --port-file out/esc.port >out/esc.out 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null; wait $mock_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s out/esc.port ] && break; sleep 0.05; done
cat > out/esc.config.yaml <<YAML
version: "1.0"
target:
  type: agui
  endpoint: "http://127.0.0.1:$(cat out/esc.port)/agent"
  connect_endpoint: "http://127.0.0.1:9/c/\${agentId}/\${threadId}"
  agentId: "a b"
  threadId: "t/1?x=2"
  timeout_ms: 5000
YAML
set +e
"$ANANKE" run -c out/esc.config.yaml a.test.yaml >out/esc.run 2>&1
rc=$?
set -e
[ $rc = 1 ] || { echo "exit $rc, want 1"; cat out/esc.run; exit 1; }
grep -qF 'http://127.0.0.1:9/c/a%20b/t%2F1%3Fx%3D2' out/esc.run || { cat out/esc.run; exit 1; }
# not a URL: refused where it is written
printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "http://127.0.0.1:9/agent"\n  agentId: x\n  connect_endpoint: "/connect"\n' \
  >out/bad.config.yaml
set +e
"$ANANKE" validate -c out/bad.config.yaml a.test.yaml >out/bad.run 2>&1
rc=$?
set -e
[ $rc = 2 ] || { echo "exit $rc, want 2"; cat out/bad.run; exit 1; }
grep -qF "bad.config.yaml:6:21: 'connect_endpoint' must be an http:// or https:// URL, not '/connect'" out/bad.run ||
  { cat out/bad.run; exit 1; }
