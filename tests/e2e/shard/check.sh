set -e
"$ANANKE" run . --shard 2/3 --reporter json:out/2.json >/dev/null
"$ANANKE" run . --shard 3/3 --reporter json:out/3.json >/dev/null
all=$("$ANANKE" run . --dry-run | grep -c 'shard test')
[ "$all" = 11 ]
# every test exactly once across the shards, sizes differ by at most one
jq -r '.tests[].name' out/1.json out/2.json out/3.json | sort > out/union
[ "$(sort -u out/union | wc -l)" = 11 ] && [ "$(wc -l < out/union)" = 11 ]
for k in 1 2 3; do n=$(jq '.tests | length' out/$k.json); [ "$n" -ge 3 ] && [ "$n" -le 4 ]; done
# stable: the same shard twice selects the same tests
"$ANANKE" run . --shard 2/3 --dry-run | grep 'shard test' > out/again
[ "$(grep -c 'shard test' out/again)" = "$(jq '.tests | length' out/2.json)" ]
# a bad shard is a usage error
set +e; "$ANANKE" run . --shard 4/3 >/dev/null 2>&1; [ $? = 2 ]
set -e
# merge joins the shards back into one run, in the order of an unsharded run
"$ANANKE" run . --reporter json:out/all.json >/dev/null
"$ANANKE" merge out/3.json out/1.json out/2.json --reporter json:out/merged.json \
  --reporter junit:out/merged.xml > out/merge.stdout
grep -q '11 passed, 0 failed, 0 errors (11 tests)' out/merge.stdout
diff <(jq -r '.tests[].name' out/all.json) <(jq -r '.tests[].name' out/merged.json)
[ "$(grep -c '<testcase ' out/merged.xml)" = 11 ]
# the transcripts survive the round trip
jq -e '[.tests[].transcript.turns[0].text] | all(. == "hello")' out/merged.json >/dev/null
# a file that is not a report is named, with its line and column, exit 2
echo '{"tests": [' > out/broken.json
set +e
"$ANANKE" merge out/1.json out/broken.json > out/merge-bad.stdout 2>&1; rc=$?
set -e
[ $rc = 2 ]
grep -q 'out/broken.json:2:' out/merge-bad.stdout
# every field of every test survives the round trip (timings and mock ids aside)
t() { jq '.tests | map(del(.start_ms, .duration_ms, .metrics.duration_ms, .metrics.ttft_ms) | .transcript |= (del(.start_ms, .end_ms)
  | .turns[] |= del(.start_ms, .end_ms, .first_event_ms, .first_text_ms, .run_id, .messages)))' "$1"; }
diff <(t out/all.json) <(t out/merged.json)
