set -e
F=$OUT/rec/tests/answers_as_SSE_streams/frames.jsonl
jq -r .data "$F" | grep -q '^> .*"method":"initialize","params":{"protocolVersion":"2025-06-18"'
jq -r .data "$F" | grep -q '^< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"'
