# ananke-mock refuses a port that is already bound (it used to share it
# with the first mock, SO_REUSEPORT, and each got part of the traffic).
set -euo pipefail
tmp=$(mktemp -d)
first=""
trap '[ -n "$first" ] && kill "$first" 2>/dev/null; rm -rf "$tmp"' EXIT
printf 'default:\n  steps:\n    - text: "one"\n' > "$tmp/s.yaml"
"$MOCK" agui --scenario "$tmp/s.yaml" --port 0 --port-file "$tmp/p" > /dev/null 2>&1 &
first=$!
for _ in $(seq 1 200); do [ -s "$tmp/p" ] && break; sleep 0.01; done
port=$(cat "$tmp/p")
for proto in agui; do  # every HTTP mock listens through mock_http.c
  rc=0
  timeout 5 "$MOCK" "$proto" --scenario "$tmp/s.yaml" --port "$port" > "$OUT/$proto.out" 2> "$OUT/$proto.err" || rc=$?
  cat "$OUT/$proto.err"
  [ "$rc" -eq 1 ] || { echo "$proto mock on a busy port: exit $rc"; exit 1; }
  grep -qF "port $port is already in use on 127.0.0.1" "$OUT/$proto.err"
done
kill -0 "$first"
echo "mock-busy-port: ok"
