set -e
R="$OUT/requests.jsonl"
# turn 2 carries turn 1: the user message, the assistant's tool call, the tool result, the text
sed -n 2p "$R" | jq -e '.body.messages | map(.role) == ["user","assistant","assistant","tool","assistant","user"]
  or map(.role) == ["user","assistant","tool","assistant","user"]' >/dev/null
sed -n 2p "$R" | jq -e '[.body.messages[] | select(.role=="assistant") | .toolCalls // [] | .[] | .function.name] == ["book_table"]' >/dev/null
sed -n 2p "$R" | jq -e '[.body.messages[] | select(.role=="tool")][0] | .toolCallId == "call_1"' >/dev/null
# every request: same thread, fresh run, tools/context/forwardedProps present
jq -s -e '.[0:3] | map(.body.threadId) | unique | length == 1' "$R" >/dev/null
jq -s -e '.[0:3] | map(.body.runId) | unique | length == 3' "$R" >/dev/null
jq -s -e 'all(.[]; .body.tools == [] and .body.context == [] and (.body.forwardedProps | type) == "object")' "$R" >/dev/null
jq -s -e 'all(.[]; .headers.accept == "text/event-stream")' "$R" >/dev/null
# the connect turn sends the history without a new user message
sed -n 3p "$R" | jq -e '[.body.messages[] | select(.role=="user")] | length == 2' >/dev/null
# the frontend tool call is captured without a result; bad args kept as text
jq -e '.tests[0].transcript.tool_calls[1] | .name == "show_confirmation" and (has("result") | not)' "$OUT/results.json" >/dev/null
jq -e '.tests[1].transcript.tool_calls[0] | .args == null and .args_text == "{\"query\": \"unterminated"' "$OUT/results.json" >/dev/null
