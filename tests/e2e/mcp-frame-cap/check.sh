set -e
# The same cap over Streamable HTTP: one JSON body is one message, and the
# answer's body is the stdio line without its newline.
"$MOCK" mcp --http --port 0 --port-file out/http.port >out/http.out 2>out/http.err &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null; wait $mock_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s out/http.port ] && break; sleep 0.05; done
port=$(cat out/http.port)
cat > out/http.config.yaml <<YAML
version: "1.0"
target:
  type: mcp
  transport: http
  endpoint: "http://127.0.0.1:$port/mcp"
  timeout_ms: 5000
  max_frame_bytes: 300
YAML
set +e
"$ANANKE" run -c out/http.config.yaml e221.test.yaml e222.test.yaml f.test.yaml -j 1 \
  -r json:out/http.json >out/http.run 2>&1
rc=$?
set -e
[ $rc = 1 ] || { echo "exit $rc, want 1"; cat out/http.run; exit 1; }
grep -q 'a message over the 300-byte cap (max_frame_bytes)' out/http.run
jq -e '[.tests[].status] == ["pass", "error", "pass"]' out/http.json >/dev/null
