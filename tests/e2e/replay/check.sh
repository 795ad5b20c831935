# Replays of the recording the case's run made: no agent is contacted, the
# verdicts are the run's, and they follow the tests as they are edited.
set -e
R=$OUT/rec
E=$OUT/edited
rm -rf "$E" # test files under the case would be found by the replays below
# no agent: both URLs point at a closed port, and the mocks see nothing new
export ANANKE_MOCK_URL=http://127.0.0.1:9/agent ANANKE_OPENAI_URL=http://127.0.0.1:9/v1
seen=$(wc -l <"$OUT/requests.jsonl")
seen_judge=$(wc -l <"$OUT/openai-requests.jsonl")

rc=0
"$ANANKE" replay "$R" -r json:"$OUT/replay.json" >"$OUT/replay.out" 2>&1 || rc=$?
[ "$rc" = 1 ]
grep -q "ananke: replaying 4 tests on the recording $R (agui \${ENV.ANANKE_MOCK_URL}," "$OUT/replay.out"
grep -q '^FAIL  weather is rainy' "$OUT/replay.out"
grep -q '3 passed, 1 failed, 0 errors (4 tests)' "$OUT/replay.out"
# the same verdicts as the recorded run
diff <(jq -r '.tests[] | "\(.status) \(.name)"' "$R/results.json") \
     <(jq -r '.tests[] | "\(.status) \(.name)"' "$OUT/replay.json")
# the judge's verdict is the recorded one, not asked again
jq -e '[.tests[3].judgements[] | del(.location)] == [input.tests[3].judgements[] | del(.location)]' \
  "$OUT/replay.json" "$R/results.json" >/dev/null
jq -e '.tests[3].judgements[0].verdict == "pass"' "$OUT/replay.json" >/dev/null
[ "$(wc -l <"$OUT/requests.jsonl")" = "$seen" ]
[ "$(wc -l <"$OUT/openai-requests.jsonl")" = "$seen_judge" ]

# the tests edited after the recording: copies in $OUT/edited
mkdir -p "$E"
cp -r ananke.config.yaml scripts a.test.yaml b.test.yaml c.test.yaml judge.test.jsonl "$E/"
sed -i 's#/rain/#/sunny/#' "$E/c.test.yaml"           # fails no more
sed -i 's#"\^42\$"#"^43$"#' "$E/a.test.yaml"          # an expected value changed: fails now
sed -i 's#must be polite#must be rude#' "$E/judge.test.jsonl"  # other criteria: no verdict
rc=0
(cd "$E" && "$ANANKE" replay "$R" -o "$OUT/edited.json") >"$OUT/edited.out" 2>&1 || rc=$?
[ "$rc" = 1 ]
jq -r '.tests[] | "\(.status) \(.name)"' "$OUT/edited.json" >"$OUT/edited.statuses"
diff - "$OUT/edited.statuses" <<'EOT'
fail checkout with a hook token
pass weather is sunny
pass weather is rainy
error polite
EOT
grep -qF 'none with args amount matching /^43$/ (amount was "42")' "$OUT/edited.out"
grep -q "judge 'judge' (the test level) has no recorded verdict: its criteria changed since the recording" \
  "$OUT/edited.out"

# a test added after the recording, a turn added to a test, a test removed
cat >"$E/d.test.yaml" <<'EOT'
version: "1.0"
name: a new test
turns:
  - user: "what is the weather"
EOT
cat >>"$E/b.test.yaml" <<'EOT'
  - user: "and tomorrow?"
EOT
rm "$E/c.test.yaml"
rc=0
(cd "$E" && "$ANANKE" replay "$R" -o "$OUT/grown.json") >"$OUT/grown.out" 2>&1 || rc=$?
[ "$rc" = 1 ]
jq -r '.tests[] | "\(.status) \(.name)"' "$OUT/grown.json" >"$OUT/grown.statuses"
diff - "$OUT/grown.statuses" <<'EOT'
fail checkout with a hook token
error weather is sunny
error a new test
error polite
EOT
grep -q 'turn 2 ("and tomorrow?") has no recording: the test has 2 turns now, the recording 1' \
  "$OUT/grown.out"
grep -q "no recording of this test in '$R'" "$OUT/grown.out"
grep -q "ananke: warning: the recording has test 'weather is rainy' (c.test.yaml), which is not in the suite any more" \
  "$OUT/grown.out"
jq -e '.tests[2].error.code == "AN_ENOTFOUND"' "$OUT/grown.json" >/dev/null

# only some files: tests of the others are not warned about
(cd "$E" && "$ANANKE" replay "$R" b.test.yaml) >"$OUT/some.out" 2>&1 || true
! grep -q 'warning' "$OUT/some.out"

# what is not a recording: exit 2, saying so
rc=0; "$ANANKE" replay "$E" >"$OUT/not.out" 2>&1 || rc=$?
[ "$rc" = 2 ]
grep -q "is not an ananke recording: it has no run.json (recordings are made with 'ananke run --record DIR')" "$OUT/not.out"
rc=0; "$ANANKE" replay "$OUT/no-such-dir" >"$OUT/none.out" 2>&1 || rc=$?
[ "$rc" = 2 ]
mkdir -p "$OUT/other"; echo '{"format": "something-else/3"}' >"$OUT/other/run.json"
rc=0; "$ANANKE" replay "$OUT/other" >"$OUT/other.out" 2>&1 || rc=$?
[ "$rc" = 2 ]
grep -q "the recording's format is 'something-else/3'; this ananke reads 'ananke-record/1'" "$OUT/other.out"
rc=0; "$ANANKE" replay >"$OUT/nodir.out" 2>&1 || rc=$?
[ "$rc" = 2 ]
