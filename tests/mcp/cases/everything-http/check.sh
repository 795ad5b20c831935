set -e
F=$OUT/rec/tests/calls_over_Streamable_HTTP/frames.jsonl
G=$OUT/rec/tests/a_second_test_gets_its_own_session/frames.jsonl
# the handshake, then the calls, answered by id
jq -r .data "$F" | grep -q '^> {"jsonrpc":"2.0","id":1,"method":"initialize"'
jq -r .data "$F" | grep -q '^> {"jsonrpc":"2.0","method":"notifications/initialized"}$'
jq -r .data "$F" | grep -q '^< {"result":{"content":\[{"type":"text","text":"The sum of 40 and 2 is 42."}\]},"jsonrpc":"2.0","id":3}$'
# each test initializes its own session
jq -r .data "$G" | grep -q '"method":"initialize"'
# the recording is judged again offline, with the same verdicts and turn kinds
"$ANANKE" replay "$OUT/rec" -v >"$OUT/replay" 2>&1
grep -q "^3 passed, 0 failed, 0 errors" "$OUT/replay"
grep -q 'turn 1 mcp:call: ' "$OUT/replay"
