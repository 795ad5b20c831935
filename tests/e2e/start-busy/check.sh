# target.start on a port something already listens on: an error that says
# so (reuse_existing: false, the default); with reuse_existing: true that
# server is tested, and neither started nor stopped.
. ../start_lib.sh
"$MOCK" agui --scenario "$proj/agent.mock.yaml" --port 0 --port-file "$proj/p" > /dev/null 2>&1 &
other=$!
for _ in $(seq 1 200); do [ -s "$proj/p" ] && break; sleep 0.01; done
port=$(cat "$proj/p")
for reuse in false true; do
  config "$port" "    cmd: [sh, -c, \"touch started; exec sleep 100$$\"]
    ready: {url: \"http://127.0.0.1:$port/agent\"}
    reuse_existing: $reuse"
  rc=0; "$ANANKE" run > "$OUT/$reuse.out" 2>&1 || rc=$?
  cat "$OUT/$reuse.out"
  [ ! -e started ] && [ ! -e .ananke/start.log ]   # nothing was started
  kill -0 "$other"                                 # nor stopped
done
grep -qF "target.start: port $port (127.0.0.1:$port, from ready.url) is already in use: stop what listens there, or set reuse_existing: true" "$OUT/false.out"
! grep -q '^PASS' "$OUT/false.out"
grep -q '^PASS  hello' "$OUT/true.out" && grep -q '^1 passed' "$OUT/true.out"
# the same with ready.port
config "$port" "    cmd: [sh, -c, \"touch started\"]
    ready: {port: $port}"
rc=0; "$ANANKE" run > "$OUT/port.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -qF "target.start: port $port (127.0.0.1:$port) is already in use" "$OUT/port.out"
kill "$other"; wait "$other" 2>/dev/null || true
echo "start-busy: ok"
