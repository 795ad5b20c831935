# A turn failure stops the test: the first test's second turn is never sent,
# so the mock sees exactly one "hello" request before test b's.
set -e
first_hello=$(grep -n '"content":"hello"' "$OUT/requests.jsonl" | head -1 | cut -d: -f1)
first_danger=$(grep -n '"content":"danger"' "$OUT/requests.jsonl" | head -1 | cut -d: -f1)
[ "$first_danger" = 1 ]
# test b's first request is the second request overall: test a sent only one
[ "$first_hello" = 2 ]
jq -e '.tests[0].transcript.turns[1].status == "not_run"' "$OUT/results.json" >/dev/null
