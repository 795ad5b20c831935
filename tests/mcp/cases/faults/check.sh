set -e
R=$OUT/results.json
# the refused protocol error is still kept with the call, as rpc_error
jq -e '.tests[] | select(.name == "a protocol error breaks the turn") | .transcript.tool_calls[0].status == "rpc_error"' $R >/dev/null
jq -e '.tests[] | select(.name == "an allowed protocol error is recorded and asserted") | .transcript.tool_calls[0].result.error.code == -32602' $R >/dev/null
# the malformed frame is a warning of its turn
jq -e '.tests[] | select(.name == "a malformed frame and no answer") | .transcript.turns[0].warnings | map(select(test("invalid JSON"))) | length == 1' $R >/dev/null
