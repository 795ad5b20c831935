set -e
# the call is kept with its arguments so far, not ended, and no warning
jq -e '.tests[0].transcript.tool_calls[0] | .args_text == "{\"q\":"' "$OUT/results.json" >/dev/null
jq -e '.tests[0].transcript.turns[0].warnings // [] | length == 0' "$OUT/results.json" >/dev/null
