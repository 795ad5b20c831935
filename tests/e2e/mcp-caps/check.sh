set -e
# max_body_bytes over Streamable HTTP: one response body. The echo of 300
# bytes answers with a body over 300 bytes (and under max_frame_bytes), the
# short echo after it passes; max_stderr_bytes belongs to stdio.
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
  max_body_bytes: 300
YAML
set +e
"$ANANKE" run -c out/http.config.yaml long.test.yaml f.test.yaml -j 1 \
  -r json:out/http.json >out/http.run 2>&1
rc=$?
set -e
[ $rc = 1 ] || { echo "exit $rc, want 1"; cat out/http.run; exit 1; }
grep -q 'response body larger than max_body_bytes (300 bytes)' out/http.run
jq -e '[.tests[].status] == ["error", "pass"]' out/http.json >/dev/null
printf '  max_stderr_bytes: 10\n' >>out/http.config.yaml
set +e
"$ANANKE" run -c out/http.config.yaml f.test.yaml >out/http2.run 2>&1
rc=$?
set -e
[ $rc = 2 ] || { echo "exit $rc, want 2"; cat out/http2.run; exit 1; }
grep -q "http.config.yaml:8:21: 'max_stderr_bytes' belongs to a stdio transport" out/http2.run
