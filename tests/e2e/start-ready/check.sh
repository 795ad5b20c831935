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
echo "start-ready: ok"
