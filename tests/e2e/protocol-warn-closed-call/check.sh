set -e
# as the reference client's apply does (arguments += delta): the late delta
# is part of the call's arguments, in the transcript and in the history
jq -e '.tests[0].transcript.tool_calls[0] | .args_text == "{\"q\":\"x\"} more"' "$OUT/results.json" >/dev/null
jq -e '.tests[0].transcript.turns[0].messages | map(.toolCalls // [] | .[].function.arguments) == ["{\"q\":\"x\"} more"]' \
  "$OUT/results.json" >/dev/null
