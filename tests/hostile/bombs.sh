# Sourced by tests/hostile/run.sh (its helpers, $ANANKE, $OUT, $sanitized):
# G. amplification bombs from an AG-UI agent (bombs/agent.mjs, issue 18).
# Each bomb test runs alone, timed and measured (/usr/bin/time's peak RSS):
# it ends as an ERROR naming its cap within its timeout (20 s) plus 2 s, and
# ananke's peak memory stays under BOMB_MAX_KB (docs/security.md states the
# figure); then all of them run at once beside a good test, which passes.
BOMB_MAX_KB=204800 # 200 MB
bombs_pid=""
spawn_server "$OUT/bombs.port" 0.05 "$OUT/bombs.stdout" "$OUT/bombs.stderr" \
  node "$here/bombs/agent.mjs" "$OUT/bombs.port" || bad "G: the bomb agent did not start"
bombs_pid=$spawned_pid
export BOMBS_URL="http://127.0.0.1:$(cat "$OUT/bombs.port")/"

# bomb NAME STATUS PATTERN: the test NAME alone; its status and its error
# (or first finding) as err_is checks them, its time and peak memory
bomb() {
  local name=$1 t0 ms rss
  t0=$(date +%s%N)
  (cd "$here/bombs" && timeout -k 5 60 /usr/bin/time -f '%M' -o "$OUT/bomb-$name.rss" \
     "$ANANKE" run "$name.test.yaml" -r json:"$OUT/bomb-$name.json") >"$OUT/bomb-$name.out" 2>&1
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  err_is "G: $name" "$OUT/bomb-$name.json" "$name" "$2" "$3"
  [ "$sanitized" = 1 ] && return
  rss=$(tail -n 1 "$OUT/bomb-$name.rss" 2>/dev/null || echo 0)
  [ "$ms" -lt 22000 ] && ok "G: $name: ${ms} ms (< 20 s timeout + 2 s)" || bad "G: $name took ${ms} ms"
  [ "${rss:-0}" -gt 0 ] && [ "$rss" -lt "$BOMB_MAX_KB" ] &&
    ok "G: $name: peak memory $((rss / 1024)) MB (< $((BOMB_MAX_KB / 1024)) MB)" ||
    bad "G: $name: peak memory ${rss} KB"
}
bomb copybomb error \
  "^STATE_DELTA \\(event #2\\) stopped at max_state_bytes \\(16777216 bytes\\): operation 18 \\(copy '/a/-'\\): the document would weigh more than 16777216 bytes"
bomb shiftbomb error \
  '^STATE_DELTA \(event #3\) stopped at max_state_bytes \(16777216 bytes\): .*patches copied, weighed or shifted more than 1073741824 bytes'
bomb bigsnap error '^event #2 is not valid JSON \(15000038 bytes of JSON would take about [0-9]+ MB as a tree, more than 8 times their size and 64 MiB \(the JSON tree cap\)'
bomb argsbomb fail '^1 call \(#1\)'
check "G: argsbomb: the arguments are not built, and the warning says why" jq_true "$OUT/bomb-argsbomb.json" \
  '.tests[0].transcript.turns[0].warnings | any(test("the JSON tree cap"))'
bomb deepstate error '^STATE_SNAPSHOT \(event #2\) nests deeper than the state may \(2000 levels\)'
bomb warnbomb pass ''
check "G: warnbomb: 100 of the million warnings kept, the rest counted" jq_true "$OUT/bomb-warnbomb.json" \
  '.tests[0].transcript.turns[0] | (.warnings | length) == 101 and .warnings_dropped == 999900 and
   (.warnings[100] | test("^and 999900 more warnings like .protocol warning \\[unknown-event\\].*max_warnings: 100 of a kind"))'
check "G: warnbomb: the JSON report stays small" test "$(stat -c %s "$OUT/bomb-warnbomb.json")" -lt 200000
# numbers beyond int64 are kept; usage counts at INT64_MAX saturate when summed
bomb bignum fail '^9223372036854775807 tokens'
check "G: bignum: the text after them is there" jq_true "$OUT/bomb-bignum.json" \
  '.tests[0].transcript.turns[0].state.big | type == "number" and . < -9e19'

# all at once, two at a time, beside a good test
(cd "$here/bombs" && timeout -k 5 120 "$ANANKE" run . -j 2 -r json:"$OUT/bombs.json") >"$OUT/bombs-all.out" 2>&1
check "G: all bombs in one run: every verdict as alone, the good test passes" jq_true "$OUT/bombs.json" \
  '[.tests[] | "\(.name) \(.status)"] | sort == ["argsbomb fail", "bignum fail", "bigsnap error", "copybomb error",
   "deepstate error", "fine pass", "shiftbomb error", "warnbomb pass"]'
stop_pids "$bombs_pid"

# comply: an ACP agent that writes 300000 lines that are not JSON-RPC
# messages gets 100 "framing" entries and one that counts the rest
t0=$(date +%s%N)
(cd "$tests_root" && timeout -k 5 60 /usr/bin/time -f '%M' -o "$OUT/bomb-junk.rss" "$ANANKE" comply \
   -a junk="$here/bombs/junk-acp.sh" -t optional.fs.read -r json:"$OUT/bomb-junk.json" compliance/acp) \
  >"$OUT/bomb-junk.out" 2>&1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "G: comply: 300000 lines that are not JSON-RPC: 100 shown, the rest counted" jq_true "$OUT/bomb-junk.json" \
  '[.. | objects | select(has("unmet")) | .unmet[] | select(.kind == "framing")] |
   length == 101 and (.[100].message == "and 299900 more lines to stdout that are not JSON-RPC messages, not shown")'
if [ "$sanitized" = 0 ]; then
  rss=$(tail -n 1 "$OUT/bomb-junk.rss" 2>/dev/null || echo 0)
  [ "${rss:-0}" -gt 0 ] && [ "$rss" -lt "$BOMB_MAX_KB" ] &&
    ok "G: comply junk: peak memory $((rss / 1024)) MB, ${ms} ms" || bad "G: comply junk: peak memory ${rss} KB"
fi

# comply: an MCP server that floods valid notifications: each test stops
# reading it at --max-messages (here 5000) and fails naming the cap, in
# well under the tests' 10 s windows, in bounded memory
t0=$(date +%s%N)
(cd "$tests_root" && timeout -k 5 60 /usr/bin/time -f '%M' -o "$OUT/bomb-flood.rss" "$ANANKE" comply \
   --protocol mcp --spec 2025-11-25 --max-messages 5000 -t required.ping -t required.tools.list \
   -a flood="$here/bombs/flood-mcp.sh" -r json:"$OUT/bomb-flood.json") >"$OUT/bomb-flood.out" 2>&1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "G: comply: a flood of valid messages: each test FAILs naming max_messages" jq_true "$OUT/bomb-flood.json" \
  '[.agents[0].tests[] | select(.status == "fail" and (.unmet[0].message ==
     "the agent sent more than 5000 messages in one test (max_messages); the rest were not read"))] | length == 2'
[ "$ms" -lt 5000 ] && ok "G: comply flood: ${ms} ms (the windows are not waited out)" || bad "G: comply flood: ${ms} ms"
if [ "$sanitized" = 0 ]; then
  rss=$(tail -n 1 "$OUT/bomb-flood.rss" 2>/dev/null || echo 0)
  [ "${rss:-0}" -gt 0 ] && [ "$rss" -lt "$BOMB_MAX_KB" ] &&
    ok "G: comply flood: peak memory $((rss / 1024)) MB" || bad "G: comply flood: peak memory ${rss} KB"
fi
# ... and over Streamable HTTP: an answer of 20000 notifications is cut at
# the cap, the step a transport error naming it
python3 "$here/bombs/flood-sse.py" >"$OUT/flood-sse.port" 2>"$OUT/flood-sse.err" &
flood_pid=$!
for _ in $(seq 1 100); do [ -s "$OUT/flood-sse.port" ] && break; sleep 0.05; done
(cd "$tests_root" && timeout -k 5 60 "$ANANKE" comply --protocol mcp --spec 2026-07-28 --max-messages 5000 \
   -t required.modern.discover -a "flood=http://127.0.0.1:$(head -n 1 "$OUT/flood-sse.port")/mcp" \
   -r json:"$OUT/bomb-flood-http.json") >"$OUT/bomb-flood-http.out" 2>&1
stop_pids "$flood_pid"
check "G: comply: an HTTP answer of 20000 messages: the step a transport error naming max_messages" \
  jq_true "$OUT/bomb-flood-http.json" '.agents[0].tests[0].status == "fail" and
    ([.agents[0].tests[0].unmet[] | .message | contains("more than 5000 messages in one answer (max_messages)")] | any)' 
