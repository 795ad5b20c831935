# The recording's layout, run.json, frames with arrival times, results that
# read back, and no secret anywhere in it.
set -e
R=$OUT/rec
A=$R/tests/checkout_with_a_hook_token
for f in run.json results.json redactions.json; do test -s "$R/$f"; done
for s in checkout_with_a_hook_token weather_is_sunny weather_is_rainy polite; do
  for f in result.json frames.jsonl vars.json; do test -f "$R/tests/$s/$f"; done
done
[ "$(ls "$R/tests" | wc -l)" = 4 ]

jq -e '.format == "ananke-record/1" and .complete == true
  and (.run_id | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$"))
  and .ananke_version == "0.1.0"
  and (.config.path | endswith("ananke.config.yaml"))
  and .target == {"type": "agui", "endpoint": "${ENV.ANANKE_MOCK_URL}", "agentId": "e2e",
                  "headers": {"Authorization": "Bearer ${ENV.SECRET_TOKEN}"}, "timeout_ms": 5000}
  and (.started_at | test("^20[0-9-]+T[0-9:.]+Z$")) and (.ended_at | test("Z$"))
  and .started_at <= .ended_at
  and .selection == {"paths": ["."], "filter": null, "shard": null}
  and .options == {"parallel": 1, "repeat": 1, "retries": 0, "timeout_ms": null, "seed": null}
  and .tests == [
    {"name": "checkout with a hook token", "id": null, "file": "a.test.yaml",
     "slug": "checkout_with_a_hook_token", "status": "pass"},
    {"name": "weather is sunny", "id": null, "file": "b.test.yaml",
     "slug": "weather_is_sunny", "status": "pass"},
    {"name": "weather is rainy", "id": null, "file": "c.test.yaml",
     "slug": "weather_is_rainy", "status": "fail"},
    {"name": "polite", "id": "polite", "file": "judge.test.jsonl", "slug": "polite",
     "status": "pass"}]' "$R/run.json" >/dev/null
[ "$(jq -r .config.sha256 "$R/run.json")" = "$(sha256sum ananke.config.yaml | cut -d' ' -f1)" ]

# frames: every protocol event, one a line, its turn and its time from the request
jq -se 'length > 10 and all(.[]; (.turn == 1 or .turn == 2) and (.t_ms | type) == "number"
  and .t_ms >= 0 and (.data | type) == "string")' "$A/frames.jsonl" >/dev/null
jq -se '[.[] | select(.turn == 1) | .data | fromjson | .type] | first == "RUN_STARTED"
  and last == "RUN_FINISHED"' "$A/frames.jsonl" >/dev/null
jq -se '[.[] | select(.turn == 2) | .data | fromjson | select(.type == "TOOL_CALL_START")
  | .toolCallName] == ["charge_card"]' "$A/frames.jsonl" >/dev/null

# results: the JSON report's shape, read back by ananke itself
jq -e '.tests | length == 4' "$R/results.json" >/dev/null
jq -e '.name == "checkout with a hook token" and (.transcript.turns | length) == 2
  and .variables == ["API_TOKEN", "CART"]' "$A/result.json" >/dev/null
jq -e '.tests[0] == input' "$R/results.json" "$A/result.json" >/dev/null
"$ANANKE" merge "$R/results.json" >"$OUT/merged" 2>&1 || true
grep -q '3 passed, 1 failed, 0 errors (4 tests)' "$OUT/merged"
jq -e '. == {"API_TOKEN": "[redacted]", "CART": "cart-1"}' "$A/vars.json" >/dev/null
jq -e '. == {}' "$R/tests/weather_is_sunny/vars.json" >/dev/null

# the secrets reached the agent (the run is unchanged) ...
grep -q '"authorization":"Bearer tok-e2e-5ecret-4242"' "$OUT/requests.jsonl"
grep -q 'log me in with hook-5ecret-9999' "$OUT/requests.jsonl"
# ... and no file of the recording holds one, nor a piece of a streamed one
! grep -rq 'tok-e2e-5ecret-4242' "$R"
! grep -rq 'hook-5ecret-9999' "$R"
! grep -rqE '5ecret|4242|9999' "$R"
! grep -rqE '4111' "$R"
# what was redacted is listed, per file, never the value
jq -e 'map(select(.what == "environment variable SECRET_TOKEN")) | map(.file) | sort
  == ["results.json", "tests/checkout_with_a_hook_token/frames.jsonl",
      "tests/checkout_with_a_hook_token/result.json"]' "$R/redactions.json" >/dev/null
jq -e 'map(select(.what == "hook variable API_TOKEN" and .count > 0)) | map(.file) | sort
  == ["results.json", "tests/checkout_with_a_hook_token/frames.jsonl",
      "tests/checkout_with_a_hook_token/result.json",
      "tests/checkout_with_a_hook_token/vars.json"]' "$R/redactions.json" >/dev/null
jq -e 'all(.[]; (keys == ["count", "file", "what"]) and .count > 0)' "$R/redactions.json" >/dev/null
# --redact: the card number is gone from the agent's text in frames and results
jq -e 'map(select(.what == "--redact \\d{4}-\\d{4}-\\d{4}-\\d{4}")) | map(.file)
  | index("tests/checkout_with_a_hook_token/frames.jsonl") != null' "$R/redactions.json" >/dev/null
jq -e '.transcript.turns[1].text == "Charging card [redacted]."
  and .transcript.tool_calls[0].args.card == "[redacted]"' "$A/result.json" >/dev/null
jq -se '[.[] | .data | fromjson | select(.type == "TEXT_MESSAGE_CONTENT") | .delta]
  | index("Charging card [redacted].") != null' "$A/frames.jsonl" >/dev/null
# the run's own report keeps hook variables' names only, as without --record
jq -e '.tests[0].variables == ["API_TOKEN", "CART"]' "$OUT/results.json" >/dev/null
! grep -q '"cart-1"' "$OUT/results.json"

# The recording's files are renamed into place whole but not synced one by
# one: the file system is synced once, before the last run.json says the
# recording is whole (an fsync per file was 16 here, 3,000 for 1,000
# tests), and a directory is made once, not before each of its files (63
# mkdir here before). strace comes with scripts/setup.sh; where the kernel
# lets nothing trace, the counts cannot be taken.
if strace -f -qq -o /dev/null true 2>/dev/null; then
  set +e
  strace -f -qq -c -e trace=fsync,fdatasync,syncfs,mkdir -o "$OUT/syscalls" \
    "$ANANKE" run . --no-history --record out/rec2 > "$OUT/rec2.out" 2>&1
  set -e
  jq -e '.complete == true' "$OUT/rec2/run.json" > /dev/null
  calls() { awk -v s="$1" '$NF == s && $4 ~ /^[0-9]+$/ {n += $4} END {print n + 0}' "$OUT/syscalls"; }
  [ $(($(calls fsync) + $(calls fdatasync))) -le 2 ]   # run.json, when opened and when whole
  [ "$(calls syncfs)" = 1 ]
  [ "$(calls mkdir)" -le 7 ]                           # out, out/rec2, tests, one a test
else
  echo "record: strace cannot trace here: the recording's syncs are not counted" >&2
fi
