set -e
R=$OUT/results.json
# the refused protocol error is still kept with the call, as rpc_error
jq -e '.tests[] | select(.name == "a protocol error breaks the turn") | .transcript.tool_calls[0].status == "rpc_error"' $R >/dev/null
jq -e '.tests[] | select(.name == "an allowed protocol error is recorded and asserted") | .transcript.tool_calls[0].result.error.code == -32602' $R >/dev/null
# the malformed frame is a warning of its turn
jq -e '.tests[] | select(.name == "a malformed frame and no answer") | .transcript.turns[0].warnings | map(select(test("invalid JSON"))) | length == 1' $R >/dev/null
# the answer under another id is a warning, and the turn still timed out
jq -e '.tests[] | select(.name == "an answer under another id is no answer") | (.transcript.turns[0].warnings | map(select(test("unknown id 1001"))) | length == 1) and (.error.code == "AN_ETIMEOUT")' $R >/dev/null
# a frame over the cap, a closed stdout: errors as they happen, before the
# turn's 4000 ms timeout (reading the 32 MiB frame takes ~1.7 s under ASan
# and 2.1 s under valgrind on a loaded machine, hence no tighter bound)
jq -e '[.tests[] | select(.name == "a frame over the cap" or .name == "a server that closes stdout and keeps running") | .duration_ms < 4000] == [true, true]' $R >/dev/null
# the isError result is kept with status error
jq -e '.tests[] | select(.name == "a tool result with isError fails tool_execution") | .transcript.tool_calls[0].status == "error"' $R >/dev/null
