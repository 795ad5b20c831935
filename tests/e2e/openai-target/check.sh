set -e
# the tool loop: every call is in the transcript with its result
jq -e '[.tests[] | select(.name == "shop") | .transcript.tool_calls[] | .name] == ["get_weather", "stock", "escalate"]' "$OUT/results.json"
jq -e '.tests[] | select(.name == "shop") | .transcript.tool_calls[0].args.city == "Paris"' "$OUT/results.json"
# a tool with neither result nor command ends the turn without a result
jq -e '.tests[] | select(.name == "shop") | .transcript.tool_calls[2].result == null' "$OUT/results.json"
# the stock tool's command got the call's arguments on stdin
jq -e '.tests[] | select(.name == "shop") | .transcript.tool_calls[1].result.asked.sku == "A1"' "$OUT/results.json"
# the weather turn was two model calls: the second carries the tool result
grep -c '"model":"shop-model"' "$OUT/openai-requests.jsonl" | grep -qx 8
