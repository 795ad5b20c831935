# Dynamic tests replayed: checkpoints judged again on the recorded turns,
# the simulator's decisions and the judge's verdicts taken as recorded.
set -e
R=$OUT/rec
export ANANKE_MOCK_URL=http://127.0.0.1:9/agent ANANKE_OPENAI_URL=http://127.0.0.1:9/v1
summary='.tests[] | "\(.status) \(.name) \(.dynamic.end) \([.dynamic.checkpoints[].reached_at_turn])
  \([.findings[].kind]) \(.dynamic.total_turns)"'
rc=0
"$ANANKE" replay "$R" cases.jsonl expense.test.yaml -o "$OUT/replay.json" >"$OUT/replay.out" 2>&1 ||
  rc=$?
[ "$rc" = 1 ]
diff <(jq -r "$summary" "$R/results.json") <(jq -r "$summary" "$OUT/replay.json")
# the YAML test's judge (a checkpoint's) was not asked: its recorded verdict
jq -e '.tests[8].judgements | length == 1 and .[0].verdict == "pass"' "$OUT/replay.json" >/dev/null

# edited: a checkpoint that no recorded turn meets now, a lower max_turns
E=$OUT/edited
rm -rf "$E"
mkdir -p "$E"
cp ananke.config.yaml cases.jsonl expense.test.yaml "$E/"
sed -i 's#"value": "submitted"}}], "max_turns": 10#"value": "approved"}}], "max_turns": 10#' \
  "$E/cases.jsonl"
sed -i 's#max_turns: 10#max_turns: 2#' "$E/expense.test.yaml"
rc=0
(cd "$E" && "$ANANKE" replay "$R" cases.jsonl expense.test.yaml -o "$OUT/edited.json") >"$OUT/edited.out" 2>&1 || rc=$?
[ "$rc" = 1 ]
jq -e '.tests[0] | .status == "error" and .error.code == "AN_ENOTFOUND"
  and (.error.message | test("the recorded conversation ended after 3 turns \\(all_reached\\); now confirm is not reached by then, and replay cannot ask the simulator for more turns"))' \
  "$OUT/edited.json" >/dev/null
jq -e '.tests[8] | .status == "fail" and .dynamic.end == "max_turns" and .dynamic.total_turns == 2
  and .findings[0].kind == "dynamic.max_turns"' "$OUT/edited.json" >/dev/null
grep -q 'warning (turn 2): replay: the loop ends here now; the recording has 1 more turn' \
  "$OUT/edited.out"
