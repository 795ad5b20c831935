set -e
R=$OUT/results.json
# the answer on a stream left open ends the turn at once, not at the timeout
jq -e '.tests[] | select(.name == "an answer on a stream that never ends") | .duration_ms < 1500' $R >/dev/null
# the stream that never answers is the turn's timeout
jq -e '.tests[] | select(.name == "an SSE stream that never answers") | .error.code == "AN_ETIMEOUT"' $R >/dev/null
