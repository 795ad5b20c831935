# A recording is untrusted input: every number in its results.json at the
# edge of int64 (times, durations, turn numbers, token counts) is read
# within its field's range, so replay, compare and merge compute nothing
# that overflows (under UBSan, -fno-sanitize-recover: an overflow aborts).
set -e
R=$OUT/rec
H=$OUT/hostile
rm -rf "$H"
cp -r "$R" "$H"
# jq holds numbers as doubles: placeholders, replaced by the exact text
jq --arg max @MAX@ --arg min @MIN@ '
  .started_ms = $min | .ended_ms = $max |
  .tests[0].start_ms = $max | .tests[0].duration_ms = $max |
  .tests[0].transcript.start_ms = $min | .tests[0].transcript.end_ms = $max |
  .tests[0].transcript.turns[0].start_ms = $min | .tests[0].transcript.turns[0].end_ms = $max |
  .tests[0].transcript.turns[0].first_event_ms = $max |
  .tests[0].transcript.turns[0].first_text_ms = $min |
  .tests[0].transcript.turns[0].first_call = $max | .tests[0].transcript.turns[0].ncalls = $max |
  .tests[0].transcript.turns[0].usage = [{input_tokens: $max, output_tokens: $max}, {input_tokens: $max}] |
  .tests[0].transcript.turns[0].warnings_dropped = $max |
  .tests[0].transcript.tool_calls[0].start_ms = $min |
  .tests[0].transcript.tool_calls[0].timestamp = $max |
  .tests[0].transcript.tool_calls[0].result_ms = $min |
  .tests[0].transcript.tool_calls[0].turn = $max |
  .tests[0].runs = $max | .tests[0].passes = $max |
  .tests[0].findings = [{kind: "text.must_match", turn: $min, assertion: "x"}] |
  .tests[0].error = {message: "m", turn: $max} |
  .options.parallel = $max | .options.repeat = $min | .summary.not_run = $max
' "$R/results.json" |
  sed 's/"@MAX@"/9223372036854775807/g; s/"@MIN@"/-9223372036854775808/g' >"$H/results.json"
grep -q 9223372036854775807 "$H/results.json"

ananke_ok() { # the command ends 0, 1 or 2 (not a crash), without a sanitizer report
  local rc=0
  "$@" >"$OUT/last.out" 2>&1 || rc=$?
  if [ "$rc" -gt 2 ] || grep -q "runtime error\|AddressSanitizer" "$OUT/last.out"; then
    echo "exit $rc: $*"; cat "$OUT/last.out"; return 1
  fi
}
export ANANKE_MOCK_URL=http://127.0.0.1:9/agent
ananke_ok "$ANANKE" replay "$H" . -r json:"$OUT/replay.json" -r junit:"$OUT/replay.xml" \
  -r html:"$OUT/replay.html" -r markdown:"$OUT/replay.md" -v
ananke_ok "$ANANKE" compare "$R" "$H" -o "$OUT/pack"
ananke_ok "$ANANKE" compare "$H" "$H" -o "$OUT/pack2"
ananke_ok "$ANANKE" merge "$H/results.json" "$R/results.json" -r json:"$OUT/merged.json" -r html:"$OUT/merged.html"
# the times out of range read as absent: no duration near 2^63 ms
for f in "$OUT/replay.json" "$OUT/merged.json"; do
  jq -e '[.. | objects | to_entries[] | select(.key | test("_ms$|^duration")) | .value
          | numbers | select(. > 9007199254740992 or . < 0)] == []' "$f" >/dev/null ||
    { echo "$f holds a time out of range"; exit 1; }
done

# a results.json whose tree would be far larger than its text (9 MB of "[],"
# is some 600 MB of tree): refused before it is built, naming the cap
B=$OUT/bomb
mkdir -p "$B"
{ printf '{"ananke":"1","tests":['; head -c 9000000 /dev/zero | tr '\0' ','  | sed 's/,/[],/g'; printf '[]]}'; } >"$B/results.json"
rc=0
/usr/bin/time -f "%M" -o "$OUT/bomb.rss" "$ANANKE" merge "$B/results.json" >"$OUT/bomb.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { echo "merge of the tree bomb: exit $rc, want 2"; cat "$OUT/bomb.out"; exit 1; }
grep -q "results.json: not read: .*(the JSON tree cap)" "$OUT/bomb.out" ||
  { echo "merge of the tree bomb does not name the JSON tree cap:"; cat "$OUT/bomb.out"; exit 1; }
