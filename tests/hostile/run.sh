#!/usr/bin/env bash
# Hostile agents and bad input (issue 11): every case ends in a clear FAIL or
# ERROR, nothing hangs, the other tests' results are all there, and no
# process is left behind.
#   A. an AG-UI agent (agent.mjs) that never answers, trickles, sends a 200 MB
#      event, an endless stream, 100001 tool calls (calls/), invalid UTF-8, NUL bytes,
#      100000 levels of nesting, duplicate and unknown ids, an END for nothing,
#      and a text a regex backtracks on catastrophically; the caps settable;
#   B. ACP children that exit mid-turn, close stdout and keep running, flood
#      stderr, leave children behind, or write a frame over the cap;
#   C. hooks and script checks that flood, never exit, or die by a signal;
#   D. test files that are empty, binary, 48 MB, YAML bombs, duplicate keys;
#   E. reports that cannot be written (a path under a file, a full disk);
#   F. SIGTERM in the middle of a run: exit 143, reports written, children ended;
#   G. amplification bombs from an AG-UI agent (bombs.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
suite=hostile
pass=0 fail=0
need_node "the hostile agent is a node script"
need_jq
ANANKE=${ANANKE:-$tests_build/ananke}
# under ASan and UBSan everything is slower and bigger: the figures below
# are checked on the plain build only, the verdicts on both
sanitized=0
grep -q '^ANANKE_SANITIZE:STRING=.' "$tests_build/CMakeCache.txt" 2>/dev/null && sanitized=1
export MOCK=$tests_build/ananke-mock HOSTILE_DIR=$here NO_COLOR=1
OUT=$here/out
rm -rf "$OUT"; mkdir -p "$OUT"
agent_pid=""
cleanup() { stop_pids "$agent_pid"; }
trap cleanup EXIT

spawn_server "$OUT/port" 0.05 "$OUT/agent.stdout" "$OUT/agent.stderr" node "$here/agent.mjs" "$OUT/port" ||
  broken "the hostile agent did not start: $(cat "$OUT/agent.stderr")"
agent_pid=$spawned_pid
export HOSTILE_URL="http://127.0.0.1:$(cat "$OUT/port")/"

# left NAME PATTERN: no process whose command line matches PATTERN is left
left() {
  sleep 0.1
  if pgrep -f "$2" >/dev/null; then bad "$1: left behind: $(pgrep -af "$2" | head -n 3)"; pkill -f "$2"
  else ok "$1: no process left behind"; fi
}
# err_is NAME JSON TEST STATUS PATTERN: the test has STATUS and its error (or
# first finding's actual) matches PATTERN
err_is() {
  check "$1" jq_true "$2" '[.tests[] | select(.name == $n)][0] |
    .status == $s and ((.error.message // .findings[0].actual // "") | test($p))' \
    --arg n "$3" --arg s "$4" --arg p "$5"
}

# ---- A. the hostile AG-UI agent, all at once ----
t0=$(date +%s%N)
(cd "$here/suite" && timeout -k 5 120 /usr/bin/time -f '%M' -o "$OUT/a.rss" \
   "$ANANKE" run . -j 4 -r json:"$OUT/a.json") >"$OUT/a.stdout" 2>"$OUT/a.stderr"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" = 1 ] && ok "A: exit 1" || bad "A: exit $rc (want 1)"
rss=$(tail -n 1 "$OUT/a.rss" 2>/dev/null || echo 0)
if [ "$sanitized" = 0 ]; then
  [ "$ms" -lt 30000 ] && ok "A: the whole hostile suite took ${ms} ms (< 30 s)" || bad "A: took ${ms} ms"
  [ "${rss:-0}" -gt 0 ] && [ "$rss" -lt 1048576 ] && ok "A: peak memory $((rss / 1024)) MB (< 1 GiB)" ||
    bad "A: peak memory ${rss} KB"
fi
# a.json holds every transcript (the endless stream's runs to 100 MB): the
# checks read its verdicts from one projection (jq parses the report once)
A=$OUT/a.verdicts.json
timeout 60 jq -c '{summary, tests: [.tests[] | {name, status, error, findings: [.findings[]? | {actual}]}]}' \
  "$OUT/a.json" >"$A" 2>"$OUT/a.jq.err" || { bad "A: the report cannot be read: $(head -c 300 "$OUT/a.jq.err")"; : >"$A"; }
check "A: every test has its result (14)" jq_true "$A" '(.tests | length) == 14 and .summary.not_run == 0'
err_is "A: a good test before them passes" "$A" fine pass ''
err_is "A: and one after them" "$A" "fine at the end" pass ''
err_is "A: accepts and never answers" "$A" silent error '^no RUN_FINISHED within 3000 ms'
err_is "A: trickles a byte a second" "$A" trickle error '^no RUN_FINISHED within 3000 ms'
err_is "A: a 200 MB event" "$A" huge error 'SSE event #2 larger than max_event_bytes \(16777216 bytes\)'
# 64 MiB may take longer than the 3 s timeout on a loaded machine: either ends it
err_is "A: an endless stream" "$A" endless error \
  'larger than max_turn_bytes \(67108864 bytes\)|^no RUN_FINISHED within 3000 ms'
err_is "A: invalid UTF-8" "$A" badutf8 error 'is not valid JSON \(unable to decode byte 0xff'
err_is "A: a NUL byte" "$A" nul error 'is not valid JSON \(control character 0x0'
err_is "A: 100000 levels of nesting" "$A" deep error 'is not valid JSON \(maximum parsing depth reached'
err_is "A: a message id started twice" "$A" dupids error "\\[already-open\\].*text message 'm1' is already open"
err_is "A: a tool call id started twice" "$A" dupcalls error "\\[already-open\\].*tool call 'c1' is already open"
err_is "A: content for a message never started" "$A" unknownid error "\\[open-before-use\\].*'ghost'"
err_is "A: an END for a call never started" "$A" endonly error "\\[open-before-use\\].*'never-started'"
err_is "A: a regex that backtracks catastrophically gives no verdict" "$A" backtrack fail \
  '^no verdict: /\^\(a\+\)\+\$/ gave up on this text'
check "A: the other regex of that test is judged (it matched)" jq_true "$A" \
  '[.tests[] | select(.name == "backtrack") | .findings[]] | length == 1'

# 100001 tool calls, with a timeout of their own (slow under ASan)
t0=$(date +%s%N)
(cd "$here/calls" && timeout -k 5 120 "$ANANKE" run . -r json:"$OUT/calls.json") >"$OUT/calls.stdout" 2>&1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
err_is "A: 100001 tool calls" "$OUT/calls.json" calls error 'more than 100000 tool calls in one turn \(max_tool_calls\)'
[ "$sanitized" = 1 ] || { [ "$ms" -lt 15000 ] && ok "A: in ${ms} ms (< 15 s: no work quadratic in the calls)" ||
  bad "A: 100001 tool calls took ${ms} ms"; }

# the caps are settable: the same agent under the limits of limits.config.yaml
(cd "$here/suite" && timeout -k 5 60 "$ANANKE" run -c limits.config.yaml 04-huge.test.yaml \
   05-endless.test.yaml ../calls/calls.test.yaml 01-fine.test.yaml -r json:"$OUT/lim.json") >"$OUT/lim.stdout" 2>&1
err_is "A: max_event_bytes: 2000" "$OUT/lim.json" huge error 'larger than max_event_bytes \(2000 bytes\)'
err_is "A: max_turn_bytes: 100000" "$OUT/lim.json" endless error 'larger than max_turn_bytes \(100000 bytes\)'
err_is "A: max_tool_calls: 10" "$OUT/lim.json" calls error 'more than 10 tool calls in one turn'
err_is "A: a good test under the caps passes" "$OUT/lim.json" fine pass ''

# ---- B. ACP children ----
acp() { # MODE -> $OUT/acp-MODE.json, exit code in $rc, milliseconds in $ms
  local t0; t0=$(date +%s%N)
  (cd "$here/acp" && ACP_MODE=$1 timeout -k 5 60 "$ANANKE" run a.test.yaml -r json:"$OUT/acp-$1.json") \
    >"$OUT/acp-$1.stdout" 2>&1
  rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}
acp exit
err_is "B: exits mid-turn" "$OUT/acp-exit.json" "acp child" error 'agent exited with status 3'
acp closeout
err_is "B: closes stdout, keeps running" "$OUT/acp-closeout.json" "acp child" error 'agent closed its stdout'
left "B: the one that kept running" 'sleep 3132'
acp stderr
err_is "B: floods stderr, never answers" "$OUT/acp-stderr.json" "acp child" error 'within 3000 ms'
[ "$ms" -lt 10000 ] && ok "B: the stderr flood ended at the timeout (${ms} ms)" || bad "B: stderr flood took ${ms} ms"
left "B: the flooding agent" 'yes flooding stderr'
acp orphans
err_is "B: a child that outlives the agent: the test still passes" "$OUT/acp-orphans.json" "acp child" pass ''
left "B: the agent's orphaned child (its process group is ended)" 'sleep 3131'
acp bigframe
err_is "B: a frame over the cap" "$OUT/acp-bigframe.json" "acp child" error 'frame over the 33554432-byte cap'
left "B: the agent that sent it" 'sleep 3133'

# ---- C. hooks and script checks ----
(cd "$here/hooks" && timeout -k 5 60 "$ANANKE" run . -j 4 -r json:"$OUT/hooks.json") >"$OUT/hooks.stdout" 2>&1
err_is "C: a hook that floods stdout" "$OUT/hooks.json" "a hook that floods stdout" error "timed out after 2000 ms; stdout: \"flood"
err_is "C: a hook that never exits" "$OUT/hooks.json" "a hook that never exits" error "hook 'sleep 3134' timed out after 1000 ms"
err_is "C: a hook killed by a signal" "$OUT/hooks.json" "a hook killed by a signal" error 'killed by signal 9 \(SIGKILL\)'
err_is "C: a script check that never answers" "$OUT/hooks.json" "a script check that never answers" error "timed out after 1000 ms"
err_is "C: the next test still runs" "$OUT/hooks.json" "the next test still runs" pass ''
left "C: hooks and scripts" 'sleep 313[45]'

# ---- D. bad test files ----
validate() { # NAME FILE PATTERN: exit 2 and the message
  (cd "$here/files" && timeout -k 5 30 "$ANANKE" validate "$2") >"$OUT/v.out" 2>&1
  local r=$?
  if [ "$r" = 2 ] && grep -qE "$3" "$OUT/v.out"; then ok "$1"
  else bad "$1 (exit $r)"; head -n 5 "$OUT/v.out" | sed 's/^/    /'; fi
}
validate "D: an empty file" empty.test.yaml "^empty.test.yaml:1:1: missing required key 'version'"
validate "D: a YAML bomb (aliases)" bomb.test.yaml '^bomb.test.yaml:[0-9]+:[0-9]+: YAML document expands to more than 1000000 nodes'
validate "D: a duplicate key" dupkey.test.yaml "^dupkey.test.yaml:3:1: duplicate key 'name' \\(first at line 2\\)"
head -c 4096 /dev/urandom > "$OUT/binary.test.yaml"; printf '\0' >> "$OUT/binary.test.yaml"
validate "D: a binary file" "$OUT/binary.test.yaml" 'binary.test.yaml: file is binary'
{ printf 'version: "1.0"\nname: big\nturns:\n  - user: "'
  head -c 50000000 /dev/zero | tr '\0' 'x'; printf '"\n'; } > "$OUT/big.test.yaml"
validate "D: a 50 MB file" "$OUT/big.test.yaml" 'big.test.yaml: file is larger than 16777216 bytes'
rm -f "$OUT/big.test.yaml"

# ---- E. reports that cannot be written ----
: > "$OUT/afile"
(cd "$here/suite" && "$ANANKE" run 01-fine.test.yaml -r json:"$OUT/afile/r.json") >"$OUT/e1.out" 2>&1
r=$?
[ "$r" = 1 ] && grep -q "cannot write report '$OUT/afile/r.json'" "$OUT/e1.out" &&
  ok "E: a report under a file: exit 1, said" || { bad "E: report under a file (exit $r)"; head -n 5 "$OUT/e1.out"; }
# a full disk: a 1 KiB file size limit (the write fails with EFBIG)
mkdir -p "$OUT/full"
(cd "$here/suite" && trap '' XFSZ && ulimit -f 1 && "$ANANKE" run 01-fine.test.yaml \
   -r json:"$OUT/full/r.json" -r html:"$OUT/full/html") >"$OUT/e2.out" 2>&1
r=$?
[ "$r" = 1 ] && grep -q "cannot write report" "$OUT/e2.out" && ok "E: a full disk: exit 1, said" ||
  { bad "E: full disk (exit $r)"; head -n 5 "$OUT/e2.out"; }
[ -z "$(ls -A "$OUT/full" 2>/dev/null | grep -v '^html$')" ] && [ ! -e "$OUT/full/html/index.html" ] &&
  ok "E: no partial report left looking complete" || { bad "E: partial files left"; ls -la "$OUT/full" "$OUT/full/html" 2>&1 | head; }

# ---- F. SIGTERM in the middle of a run ----
(cd "$here/suite" && exec "$ANANKE" run 01-fine.test.yaml 02-silent.test.yaml 03-trickle.test.yaml \
   ../term/hang.test.yaml -j 4 -r json:"$OUT/term.json") >"$OUT/term.stdout" 2>&1 &
cpid=$!
sleep 1
kill -TERM "$cpid"
t0=$(date +%s%N)
wait "$cpid"; rc=$?
took=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" = 143 ] && ok "F: SIGTERM: exit 143" || bad "F: SIGTERM: exit $rc (want 143)"
[ "$took" -lt 3000 ] && ok "F: stopped in ${took} ms" || bad "F: took ${took} ms to stop"
check "F: the report is written: the finished test passed, the cut ones are errors" jq_true "$OUT/term.json" \
  '[.tests[].status] == ["pass", "error", "error", "error"] and
   ([.tests[1:][].error.message | test("interrupted")] | all)'
grep -q 'ananke: interrupted' "$OUT/term.stdout" && ok "F: it says it was interrupted" || bad "F: no 'interrupted' line"
left "F: the hook" 'sleep 3136'
# an ACP agent in the middle of a turn: ended with the run
(cd "$here/acp" && ACP_MODE=stderr exec "$ANANKE" run a.test.yaml -r json:"$OUT/term-acp.json") \
  >"$OUT/term-acp.stdout" 2>&1 &
cpid=$!
sleep 1
kill -TERM "$cpid"
wait "$cpid"; rc=$?
[ "$rc" = 143 ] && ok "F: SIGTERM during an ACP turn: exit 143" || bad "F: ACP: exit $rc (want 143)"
check "F: the ACP test is reported as interrupted" jq_true "$OUT/term-acp.json" \
  '.tests[0].status == "error" and (.tests[0].error.message | test("interrupted"))'
left "F: the ACP agent" 'yes flooding stderr'

# the ACP memory bombs
# shellcheck source=acp_bomb.sh
. "$here/acp_bomb.sh"

. "$here/bombs.sh" # G. amplification bombs (issue 18)
finish
