# target.start: ananke starts the agent, waits for it by url, by port and
# by a log line, runs the test against it and stops it: nothing is left.
. ../start_lib.sh
for ready in url port log; do
  port=$(free_port)
  case $ready in
    url) r="{url: \"http://127.0.0.1:$port/agent\"}" ;;   # a GET there is a 405: ready
    port) r="{port: $port}" ;;
    log) r='{log: "^http://127\\.0\\.0\\.1:[0-9]+$"}' ;;  # what ananke-mock prints
  esac
  config "$port" "    cmd: [ananke-mock, agui, --scenario, $proj/agent.mock.yaml, --port, \"$port\"]
    ready: $r
    timeout_ms: 5000"
  rc=0; "$ANANKE" run > "$OUT/$ready.out" 2>&1 || rc=$?
  cat "$OUT/$ready.out"
  [ "$rc" -eq 0 ] || { echo "ready.$ready: exit $rc"; exit 1; }
  grep -q '^PASS  hello' "$OUT/$ready.out"
  grep -qx "http://127.0.0.1:$port" .ananke/start.log   # its output went to the log
  nothing_left
done
# a secret in target.start.env is redacted like the target's own: the
# started agent repeats it, no output shows it
printf 'default:\n  steps:\n    - text: "my token is tok-9f8e7d6c5b4a"\n' > "$proj/leak.mock.yaml"
port=$(free_port)
config "$port" "    cmd: [ananke-mock, agui, --scenario, $proj/leak.mock.yaml, --port, \"$port\"]
    ready: {port: $port}
    env: {API_TOKEN: tok-9f8e7d6c5b4a}"
rc=0; "$ANANKE" run -v -r json:"$proj/r.json" > "$OUT/leak.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ]   # the test wanted "started agent"
grep -qF 'my token is [redacted]' "$OUT/leak.out"
! grep -qF tok-9f8e7d6c5b4a "$OUT/leak.out" "$proj/r.json"
nothing_left
echo "start-ready: ok"
