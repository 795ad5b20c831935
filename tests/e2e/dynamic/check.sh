set -e
r="$OUT/results.json"
t() { jq -e --arg n "$1" ".tests[] | select(.name == \$n) | $2" "$r" >/dev/null || { echo "failed: $1: $2"; exit 1; }; }
# the seed 002 example: three turns, each checkpoint where it was reached
t "T004 — Expense Submission Coverage" '.dynamic.end == "all_reached" and .dynamic.total_turns == 3'
t "T004 — Expense Submission Coverage" '[.dynamic.checkpoints[] | .reached_at_turn] == [1, 2, 3]'
t "T004 — Expense Submission Coverage" '.dynamic.checkpoints[1].evidence | test("create_expense")'
t "T004 — Expense Submission Coverage" '.dynamic.reasoning[0] == "start"'
# "submitted" at turn 1 came before "created": it counts only at turn 3
t order '[.dynamic.checkpoints[] | .reached_at_turn] == [2, 3]'
t wander '.dynamic.end == "max_turns" and .dynamic.total_turns == 3'
t give-up '.dynamic.end == "goal_achieved" and .dynamic.checkpoints[0].reached and (.dynamic.checkpoints[1].reached | not)'
t last-word '.dynamic.end == "goal_achieved" and .dynamic.checkpoints[2].reached == false'
# the timeout cut the slow turn in flight: well before the agent's 4 s
t slow '.dynamic.end == "timeout" and .duration_ms < 3000'
t garbage '.error.message | test("simulator error")'
# the case's own first message is sent, the simulator is not asked for it
t first-input '.transcript.turns[0].input == "I have to file an expense" and .dynamic.total_turns == 1'
# the YAML form runs the same loop; its last checkpoint asked a judge
t "expense coverage in yaml" '[.dynamic.checkpoints[] | .reached_at_turn] == [1, 2, 3]'
t "expense coverage in yaml" '.dynamic.checkpoints[2].evidence | test("judge .judge.: it says submitted")'
t "expense coverage in yaml" '.judgements | length == 1'
# --simulator names the simulator of cases that name none; --seed reaches it
echo '{"id": "flagged", "simulator": {"options": {"metadata": {"goal": "Submit a $3500 travel expense"}}}, "checkpoints": [{"id": "ask_type", "assertion": {"type": "contains", "value": "type"}}]}' > "$OUT/flagged.jsonl"
"$ANANKE" run "$OUT/flagged.jsonl" --simulator workers.test.user-simulator --seed 7 > "$OUT/flagged.out" 2>&1
grep -q "PASS  \[flagged\]" "$OUT/flagged.out"
tail -n 1 "$OUT/openai-requests.jsonl" | grep -q '"seed":7,"temperature":0'
tail -n 1 "$OUT/openai-requests.jsonl" | grep -q '\\"seed\\": 7'
# without either, a load error at the case
set +e
"$ANANKE" run "$OUT/flagged.jsonl" > "$OUT/noflag.out" 2>&1
rc=$?
set -e
test $rc -eq 2
grep -q "flagged.jsonl:1:1: a dynamic test needs a simulator" "$OUT/noflag.out"
# a required checkpoint never reached names the check that failed and why:
# in the JSON, the HTML, and the console with -v as without
t wander '.dynamic.checkpoints[0].missed == "turn 3: Tool \"create_expense\" must be called: not called (called: nothing)"'
t "T004 — Expense Submission Coverage" '[.dynamic.checkpoints[] | has("missed")] == [false, false, false]'
grep -qF '<div class="missed">failed: turn 3: Tool &quot;create_expense&quot; must be called: not called (called: nothing)</div>' "$OUT/dyn.html"
rc=0
"$ANANKE" run -v cases.jsonl --filter '^wander' >"$OUT/v.stdout" 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "the wandering case: exit $rc, want 1 (it fails)"; exit 1; }
grep -qF '3 turns, 0/1 checkpoint (max turns); missing: created (turn 3: Tool "create_expense" must be called: not called (called: nothing))' "$OUT/v.stdout"
