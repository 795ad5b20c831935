# Every reporter tells an expected failure and a stale one apart; a run whose
# only failures are expected passes; a bad list is an error at its line.
set -e
X="$OUT/junit.xml"
# JUnit: the expected failures are <skipped> (with why they fail), the stale
# one and the new failure are <failure>s
grep -q '<testsuites name="ananke" tests="4" failures="2" errors="0" skipped="2"' "$X"
grep -q '<skipped message="expected failure: refunds land in 2.0 (ISSUE-12)">' "$X"
grep -q '<failure message="stale expected failure: the test passed; take it off the --expected-failures list" type="stale">' "$X"
grep -q '<property name="ananke.expected_failure" value="failed: refunds land in 2.0 (ISSUE-12)"/>' "$X"
# TAP: TODO for the expected ones (a TAP harness does not count them), not ok for the stale one
grep -qx 'not ok 1 - J1 — jsonl known failure # TODO expected failure' "$OUT/r.tap"
grep -qx 'not ok 2 - was broken, now fixed' "$OUT/r.tap"
grep -qx 'not ok 3 - refunds are not built yet # TODO expected failure: refunds land in 2.0 (ISSUE-12)' "$OUT/r.tap"
grep -qx 'not ok 4 - a new failure' "$OUT/r.tap"
# JSON: per test and in the summary; merge keeps them and the exit code agrees
jq -e '.summary.expected_failures == 2 and .summary.stale == 1' "$OUT/results.json" >/dev/null
jq -e '[.tests[].expected_failure] == [{"outcome":"failed","reason":null},{"outcome":"stale","reason":null},{"outcome":"failed","reason":"refunds land in 2.0 (ISSUE-12)"},null]' "$OUT/results.json" >/dev/null
# Markdown and HTML
grep -q '^### XFAIL refunds are not built yet' "$OUT/r.md"
grep -q '^### STALE was broken, now fixed' "$OUT/r.md"
grep -q '2 of the failures were expected (--expected-failures). 1 listed expected failure passed (stale).' "$OUT/r.md"
grep -q '<span class="badge fail">STALE</span>' "$OUT/html/index.html"
grep -q '<span class="badge skip">XFAIL</span>' "$OUT/html/index.html"
# GitHub Actions: a notice for an expected failure, an error for the stale one
set +e
GITHUB_ACTIONS=true "$ANANKE" run . --expected-failures expected-failures.yaml > "$OUT/gha.stdout" 2>&1
set -e
grep -q '^::notice file=known.test.yaml,line=7,col=18,title=XFAIL refunds are not built yet::' "$OUT/gha.stdout"
grep -q '^::error file=fixed.test.yaml,line=1,title=STALE was broken%2C now fixed::' "$OUT/gha.stdout"
grep -q '^::error file=new.test.yaml,line=7,col=18,title=FAIL a new failure::' "$OUT/gha.stdout"
# only expected failures left: the run passes (exit 0)
printf -- '- "refunds are not built yet": "refunds land in 2.0"\n- J1\n- a new failure\n' > "$OUT/only.yaml"
"$ANANKE" run known.test.yaml new.test.yaml cases.test.jsonl --expected-failures "$OUT/only.yaml" > "$OUT/only.stdout"
grep -q '0 passed, 3 failed (3 expected), 0 errors (3 tests)' "$OUT/only.stdout"
# replay honours the list too
"$ANANKE" run known.test.yaml --record "$OUT/rec" > /dev/null || true
"$ANANKE" replay "$OUT/rec" known.test.yaml --expected-failures "$OUT/only.yaml" > "$OUT/replay.stdout"
grep -q '^XFAIL refunds are not built yet' "$OUT/replay.stdout"
# a bad list: exit 2, at its line and column
printf -- '- ok\n- {a: 1, b: 2}\n' > "$OUT/bad.yaml"
set +e; "$ANANKE" run . --expected-failures "$OUT/bad.yaml" > "$OUT/bad.out" 2>&1; rc=$?; set -e
[ $rc = 2 ]
grep -q 'bad.yaml:2:3: write one test per item' "$OUT/bad.out"
printf -- '- ok\n- ok\n' > "$OUT/dup.yaml"
set +e; "$ANANKE" run . --expected-failures "$OUT/dup.yaml" > "$OUT/dup.out" 2>&1; rc=$?; set -e
[ $rc = 2 ]
grep -q "dup.yaml:2:3: 'ok' is listed twice (first at .*dup.yaml:1:3)" "$OUT/dup.out"
