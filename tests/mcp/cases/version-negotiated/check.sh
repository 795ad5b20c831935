set -e
F=$OUT/rec/tests/an_older_version_is_negotiated/frames.jsonl
jq -r .data "$F" | grep -q '^> .*"method":"initialize","params":{"protocolVersion":"2025-03-26"'
jq -r .data "$F" | grep -q '^< {"result":{"protocolVersion":"2025-03-26"'
