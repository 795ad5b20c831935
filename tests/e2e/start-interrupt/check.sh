# Ctrl-C or SIGTERM while ananke waits for the started agent, or while a
# test runs against it: ananke stops it and exits 130/143; nothing is left.
. ../start_lib.sh
port=$(free_port)
# a server that never listens; its shell names the project (pgrep finds it)
printf '#!/bin/sh\nsleep 100%s\n' $$ > "$proj/never.sh"
chmod +x "$proj/never.sh"
config "$port" "    cmd: [$proj/never.sh]
    ready: {port: $port}
    timeout_ms: 20000"
for sig in INT TERM; do
  "$ANANKE" run > "$OUT/wait-$sig.out" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do [ -n "$(left_running)" ] && break; sleep 0.01; done
  [ -n "$(left_running)" ] || { echo "the server did not start"; exit 1; }
  kill -"$sig" "$pid"; rc=0; wait "$pid" || rc=$?
  cat "$OUT/wait-$sig.out"
  want=130; [ "$sig" = TERM ] && want=143
  [ "$rc" -eq "$want" ] || { echo "SIG$sig while waiting: exit $rc"; exit 1; }
  grep -q 'ananke: interrupted' "$OUT/wait-$sig.out"
  nothing_left
done
# mid-run: the agent is ready, the test waits on its slow answer
config "$port" "    cmd: [ananke-mock, agui, --scenario, $proj/slow.mock.yaml, --port, \"$port\", --requests, $proj/req.jsonl]
    ready: {port: $port}"
"$ANANKE" run > "$OUT/run.out" 2>&1 &
pid=$!
# the mock has the request: the turn waits on its answer
for _ in $(seq 1 300); do [ -s "$proj/req.jsonl" ] && break; sleep 0.01; done
[ -s "$proj/req.jsonl" ] || { echo "the test never reached the agent"; exit 1; }
kill -INT "$pid" || { echo "ananke ended before the interrupt:"; cat "$OUT/run.out"; exit 1; }
rc=0; wait "$pid" || rc=$?
cat "$OUT/run.out"
[ "$rc" -eq 130 ] && grep -q 'ananke: interrupted' "$OUT/run.out"
grep -q '^ERROR hello' "$OUT/run.out"   # the test was running
nothing_left
# ananke killed outright (SIGKILL, no handler runs): the agent it started
# still gets SIGTERM (PR_SET_PDEATHSIG) and ends
rm -f "$proj/req.jsonl"
"$ANANKE" run > "$OUT/kill.out" 2>&1 &
pid=$!
for _ in $(seq 1 300); do [ -s "$proj/req.jsonl" ] && break; sleep 0.01; done
[ -s "$proj/req.jsonl" ] || { echo "the test never reached the agent"; exit 1; }
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
for _ in $(seq 1 100); do [ -z "$(left_running)" ] && break; sleep 0.01; done
nothing_left
echo "start-interrupt: ok"
