# a broken turn stops the test: each test sent exactly one request
set -e
[ "$(grep -c 'never sent' "$OUT/requests.jsonl" || true)" = 0 ]
# what was captured before the break is kept
jq -e '.tests[] | select(.name == "agent reports RUN_ERROR") | .transcript.turns[0].text == "Working on it"' "$OUT/results.json" >/dev/null
jq -e '.tests[] | select(.name == "agent answers HTTP 500") | .transcript.turns[0].http_status == 500' "$OUT/results.json" >/dev/null
