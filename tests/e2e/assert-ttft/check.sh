# The slow turn's time to first text is the mock's 400 ms delay (and a
# little more), its first event (RUN_STARTED) well before it; the transcript
# keeps both times.
set -e
ms=$(jq -r '.tests[1].findings[0].actual' "$OUT/results.json")
n=${ms%ms}
[ "$n" -ge 400 ] && [ "$n" -lt 5000 ] || { echo "ttft $ms, expected 400..5000"; exit 1; }
jq -e '.tests[1].findings | length == 1' "$OUT/results.json" >/dev/null ||
  { echo "the first event limit failed too"; exit 1; }
jq -e '.tests[1].transcript.turns[0] | .first_text_ms - .start_ms >= 400 and
       .first_event_ms >= .start_ms and .first_event_ms < .first_text_ms' \
  "$OUT/results.json" >/dev/null || { echo "transcript times wrong"; exit 1; }
jq -e '.tests[2].transcript.turns[0] | has("first_text_ms") | not' "$OUT/results.json" \
  >/dev/null || { echo "a turn without text has a first_text_ms"; exit 1; }
