set -e
R=out/requests.jsonl
[ "$(grep -c '"content":"unavailable"' $R)" = 3 ]   # 2 x 503, then the answer
[ "$(grep -c '"content":"always down"' $R)" = 3 ]   # first try + 2 retries
[ "$(grep -c '"content":"wrong"' $R)" = 1 ]         # never retried
jq -e '.tests[0].transcript.turns[0].retries | length == 2' out/results.json >/dev/null
jq -e '.tests[0].transcript.turns[0].retries[0] | test("HTTP 503")' out/results.json >/dev/null
jq -e '.tests[1].transcript.turns[0].retries | length == 2' out/results.json >/dev/null
jq -e '.tests[2].transcript.turns[0] | has("retries") | not' out/results.json >/dev/null
# without --retries a 5xx is an error at once: one more request, no retry
"$ANANKE" run b.test.yaml --reporter json:out/noretry.json >/dev/null || true
jq -e '.tests[0].status == "error" and (.tests[0].transcript.turns[0] | has("retries") | not)' out/noretry.json >/dev/null
[ "$(grep -c '"content":"always down"' $R)" = 4 ]
# a refused connection is retried too (nothing listens on port 9)
set +e
ANANKE_MOCK_URL=http://127.0.0.1:9/agent "$ANANKE" run b.test.yaml --retries 2 --reporter json:out/refused.json >/dev/null
set -e
jq -e '.tests[0].transcript.turns[0].retries | length == 2' out/refused.json >/dev/null
jq -e '.tests[0].transcript.turns[0].retries[0] | test("cannot reach")' out/refused.json >/dev/null
