set -e
J="$OUT/results.jsonl"
# the one event of TYPE (and ID) satisfies the jq filter $3
ev() { jq -se "[.[] | select(.type == \"$1\" and (\"$2\" == \"\" or .id == \"$2\"))]
               | length == 1 and (.[0] | $3)" "$J" >/dev/null; }
# NDJSON: every line one object; start, a result per test in order, a
# stability event per run test (--repeat 2; the skipped one ran nothing), summary
[ "$(jq -s length "$J")" = 9 ]
[ "$(jq -r .type "$J" | tr '\n' ' ')" = "start result result result result stability stability stability summary " ]
ev start "" '.total == 4 and .runs_per_case == 2 and
             (.started_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$"))'
jq -se '[.[] | select(.type == "result") | "\(.id) \(.status)"] ==
        ["ok passed", "later skipped", "bad failed", "hist passed"]' "$J" >/dev/null
ev result ok '.name == "greets" and .input == "Hello there" and .response == "Hi! How can I help?"
              and .messages_count == 1 and .assertions == [] and .error == null and .duration_ms >= 0'
ev result later '.name == "not yet" and .duration_ms == 0 and .input == null and .response == null
                 and .messages_count == 0 and .assertions == []'
ev result bad '.name == "bad" and .assertions == [{"type": "contains", "passed": false,
               "message": "the agent must say goodbye", "expected": "the text \"Goodbye\"",
               "actual": "not found in \"Hi! How can I help?\"",
               "detail": "Output must contain \"Goodbye\"", "turn": null,
               "location": "jsonl-output/cases.jsonl:4:39"}]'
# two earlier messages and the last user message
ev result hist '.messages_count == 3 and .input == "Hello, who am I?"'
ev stability bad '.runs == 2 and .passed == 0 and .failed == 2 and .pass_rate == 0
                  and .stable == false and .stability_class == "highly_unstable"'
ev stability ok '.stability_class == "stable" and .stable and .pass_rate == 1'
ev summary "" '.total == 4 and .passed == 2 and .failed == 1 and .skipped == 1 and .errors == 0
               and .timeouts == 0 and .not_run == 0 and .pass_rate == 0.6667'
# the skipped case was never sent, whatever --repeat says: 3 tests x 2 runs
[ "$(wc -l < "$OUT/requests.jsonl")" = 6 ]
! grep -q 'skip me' "$OUT/requests.jsonl"
# the same skip in every other report
grep -q '<testsuites name="ananke" tests="4" failures="1" errors="0" skipped="1"' "$OUT/junit.xml"
grep -q '<skipped message="skip: true"/>' "$OUT/junit.xml"
grep -qx 'ok 2 - later — not yet # SKIP' "$OUT/r.tap"
grep -q '<span class="badge skip">1 skipped</span>' "$OUT/page.html"
# merge reads the skip back and still exits 1, for the failure alone
set +e; "$ANANKE" merge "$OUT/results.json" -r jsonl:"$OUT/merged.jsonl" > "$OUT/merge.stdout"; rc=$?; set -e
[ $rc = 1 ]
grep -q '^SKIP  \[later\] not yet  jsonl-output/cases.jsonl$' "$OUT/merge.stdout"
jq -se '[.[] | select(.type == "result") | "\(.id) \(.status)"] ==
        ["bad failed", "hist passed", "later skipped", "ok passed"]' "$OUT/merged.jsonl" >/dev/null
