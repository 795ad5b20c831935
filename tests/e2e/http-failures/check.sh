set -e
R=out/http-requests.jsonl
n() { grep -c "\"case_id\":\"$1\"" $R; }
# transient failures: the first attempt and 2 retries (the target's default)
[ "$(n fetch_http_500_001)" = 3 ]
[ "$(n fetch_timeout_001)" = 3 ]
[ "$(n fetch_network_drop_001)" = 3 ]
# never retried: invalid JSON, an unknown case (404)
[ "$(n fetch_invalid_json_001)" = 1 ]
[ "$(n not_in_the_scenario)" = 1 ]
# 429 with Retry-After: 1, then the answer
[ "$(n flaky_429)" = 2 ]
J=out/results.json
t() { jq -e --arg id "$1" ".tests[] | select(.id == \$id) | .transcript.turns[0] | $2" $J >/dev/null; }
t fetch_http_500_001 '.failure.class == "http_error" and .failure.status == 500 and .failure.attempt == 3 and (.failure.body_snippet | test("internal_error")) and (.retries | length == 2)'
t fetch_invalid_json_001 '.failure.class == "invalid_json" and (.failure.body_snippet | startswith("<html>")) and (has("retries") | not)'
t fetch_timeout_001 '.failure.class == "timeout" and .failure.timeout_ms == 300 and (.retries | length == 2)'
t fetch_network_drop_001 '.failure.class == "network_error" and .failure.kind == "socket_hang_up"'
t not_in_the_scenario '.failure.class == "http_error" and .failure.status == 404'
t flaky_429 '(.retries | length == 1) and (.retries[0] | test("HTTP 429.*retried after 1000 ms")) and .failure == null and .response.final_output.content == "back again"'
# the runner's --retries and the target's `retries` compose: the larger wins
"$ANANKE" run -c no-retries.yaml cases.json --filter fetch_http_500 --reporter json:out/none.json >/dev/null || true
[ "$(n fetch_http_500_001)" = 4 ]
"$ANANKE" run -c no-retries.yaml cases.json --filter fetch_http_500 --retries 1 --reporter json:out/one.json >/dev/null || true
[ "$(n fetch_http_500_001)" = 6 ]
jq -e '.tests[0].transcript.turns[0].retries | length == 1' out/one.json >/dev/null
# the mock's own answers: health, a bad request, a wrong method, a wrong path
U=$ANANKE_HTTP_URL
[ "$(curl -s $U/health)" = '{"ok":true}' ]
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST $U/run-case -d '{"case_id":"x"}')" = 400 ]
curl -s -X POST $U/run-case -d 'not json' | jq -e '.error == "bad_request"' >/dev/null
[ "$(curl -s -o /dev/null -w '%{http_code}' $U/run-case)" = 405 ]
[ "$(curl -s -o /dev/null -w '%{http_code}' $U/other)" = 404 ]
