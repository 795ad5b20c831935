# target.start that fails: never ready (timeout), exits early, cannot be
# run. Each error names the log, the log holds the output, nothing is left.
. ../start_lib.sh
port=$(free_port)
printf '#!/bin/sh\necho booting\necho "not listening" >&2\nexec sleep 100%s\n' $$ > "$proj/never.sh"
chmod +x "$proj/never.sh"
config "$port" "    cmd: [$proj/never.sh]
    ready: {port: $port}
    timeout_ms: 300"
rc=0; "$ANANKE" run > "$OUT/timeout.out" 2>&1 || rc=$?
cat "$OUT/timeout.out"
[ "$rc" -eq 1 ]
grep -qF "ananke.config.yaml:8:5: target.start: '$proj/never.sh' was not ready after 300 ms (ready.port $port; timeout_ms); its output is in .ananke/start.log" "$OUT/timeout.out"
grep -qx booting .ananke/start.log && grep -qx 'not listening' .ananke/start.log
nothing_left
! grep -q '^PASS\|^FAIL\|^ERROR' "$OUT/timeout.out"   # no test ran
# from another directory the log is named by its whole path
mkdir -p sub && rc=0
(cd sub && "$ANANKE" run -c ../ananke.config.yaml .. > "$OUT/timeout-sub.out" 2>&1) || rc=$?
[ "$rc" -eq 1 ] && grep -qF "its output is in $(cd "$proj" && pwd -P)/.ananke/start.log" "$OUT/timeout-sub.out"
nothing_left

config "$port" "    cmd: [sh, -c, \"echo dying; exit 3\"]
    ready: {url: \"http://127.0.0.1:$port/agent\"}"
rc=0; "$ANANKE" run > "$OUT/early.out" 2>&1 || rc=$?
cat "$OUT/early.out"
[ "$rc" -eq 1 ]
grep -qF "target.start: 'sh' exited with status 3 before it was ready (ready.url http://127.0.0.1:$port/agent); its output is in .ananke/start.log" "$OUT/early.out"
grep -qx dying .ananke/start.log

# ready.url: a 404 is not ready (a route not mounted yet), and the error
# gives the last answer (start-ready: a 405 is ready)
printf 'default:\n  response:\n    proposed_actions: []\n    events: []\n    final_output: {content_type: text, content: ok}\n' > "$proj/h.yaml"
config "$port" "    cmd: [ananke-mock, http, --scenario, $proj/h.yaml, --port, \"$port\"]
    ready: {url: \"http://127.0.0.1:$port/not-here\"}
    timeout_ms: 300"
rc=0; "$ANANKE" run > "$OUT/404.out" 2>&1 || rc=$?
cat "$OUT/404.out"
[ "$rc" -eq 1 ] && grep -qF "was not ready after 300 ms (ready.url http://127.0.0.1:$port/not-here, last answer HTTP 404; timeout_ms)" "$OUT/404.out"
nothing_left

config "$port" "    cmd: [$proj/no-such-server]
    ready: {port: $port}"
rc=0; "$ANANKE" run > "$OUT/missing.out" 2>&1 || rc=$?
cat "$OUT/missing.out"
[ "$rc" -eq 1 ] && grep -qF "target.start: cannot run '$proj/no-such-server'" "$OUT/missing.out"
nothing_left
# the started command ends (status 3) during the run while something else
# answers its port (here a server it left behind, as when another server
# took the port it could not bind): the tests pass, yet the run fails and
# says why
printf 'default:\n  steps:\n    - delay_ms: 800\n    - text: "hello from the started agent"\n' > "$proj/died.mock.yaml"
config "$port" "    cmd: [sh, -c, \"'$MOCK' agui --scenario '$proj/died.mock.yaml' --port $port & sleep 0.3; exit 3\"]
    ready: {url: \"http://127.0.0.1:$port/agent\"}"
rc=0; "$ANANKE" run > "$OUT/died.out" 2>&1 || rc=$?
cat "$OUT/died.out"
[ "$rc" -eq 1 ] && grep -q '^PASS  hello' "$OUT/died.out"
grep -qF "target.start: 'sh' exited with status 3 during the run: what answered its ready.url http://127.0.0.1:$port/agent was something else (another server took its port?), so the results are not its; its output is in .ananke/start.log" "$OUT/died.out"
nothing_left
# ... but one that ends with status 0 is a launcher whose server lives on: fine
config "$port" "    cmd: [sh, -c, \"'$MOCK' agui --scenario '$proj/died.mock.yaml' --port $port & sleep 0.3; exit 0\"]
    ready: {url: \"http://127.0.0.1:$port/agent\"}"
rc=0; "$ANANKE" run > "$OUT/launcher.out" 2>&1 || rc=$?
cat "$OUT/launcher.out"
[ "$rc" -eq 0 ] && grep -q '^PASS  hello' "$OUT/launcher.out" && ! grep -q 'during the run' "$OUT/launcher.out"
nothing_left
echo "start-fail: ok"
