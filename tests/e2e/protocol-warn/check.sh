set -e
# the warning is in the JSON report too, with the same text as strict's error
jq -e '.tests[0].transcript.turns[0].warnings | any(startswith("protocol violation [open-before-use] at event #5 (TEXT_MESSAGE_CONTENT)"))' \
  "$OUT/results.json" >/dev/null
# without -v the warning still shows under the passing test
"$ANANKE" run . > "$OUT/plain.stdout" 2>&1
grep -q '^  warning (turn 1): protocol violation \[open-before-use\]' "$OUT/plain.stdout"
