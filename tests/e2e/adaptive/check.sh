# --repeat auto: each verdict after as few runs as the rule needs, the
# INCONCLUSIVE one a state of its own in every reporter
set -e
# results.json: verdicts, runs, the cost of certainty
jq -e '.summary | .inconclusive == 1 and .runs_saved == 30 and .failed == 1 and .passed == 1' out/r.json >/dev/null
jq -e '.options | .repeat == "auto" and .max_repeats == 20 and .confidence == 0.95 and .pass_rate == 0.8' out/r.json >/dev/null
jq -e '[.tests[] | [.status, .runs, .passes, .max_runs]] == [["pass",8,8,20],["fail",2,0,20],["inconclusive",20,16,20]]' out/r.json >/dev/null
# runs of one test go one after another: each saw its script in order
jq -e '[.tests[2].attempts[].status] | join(",") == ([range(4)] | map("pass,pass,pass,pass,fail") | join(","))' out/r.json >/dev/null
# the borderline agent was asked 20 times, never a 21st
[ "$(grep -c borderline out/requests.jsonl)" = 20 ]
# JUnit: a failure whose type says inconclusive
grep -q '<failure message="inconclusive: 16 of 20 runs passed; 20 runs could not decide at the asked confidence" type="inconclusive">' out/j.xml
grep -q '<testsuites name="ananke" tests="3" failures="2" errors="0" skipped="0"' out/j.xml
# TAP: not ok, and the word
grep -q '^not ok 3 - borderline agent$' out/r.tap
grep -q '^  verdict: inconclusive$' out/r.tap
grep -q '^ok 1 - steady agent$' out/r.tap
# JSONL: the result's status, the summary's count and savings
jq -se '[.[] | select(.type == "result") | .status] == ["passed","failed","inconclusive"]' out/r.jsonl >/dev/null
jq -se '.[] | select(.type == "summary") | .inconclusive == 1 and .runs_saved == 30' out/r.jsonl >/dev/null
jq -se '.[0].runs_per_case == "auto"' out/r.jsonl >/dev/null
# Markdown and HTML
grep -q '^### INCONCLUSIVE borderline agent$' out/r.md
grep -q '1 inconclusive, 30 runs saved\.' out/r.md
grep -q 'data-status="inconclusive"' out/r.html
grep -q '<span class="badge inconclusive">1 inconclusive</span>' out/r.html
grep -q 'adaptive, at most 20 runs per test, pass rate needed 80.0% at 95.0% confidence; 30 runs saved' out/r.html
# read back (merge) keeps the verdict and the savings
"$ANANKE" merge out/r.json --reporter json:out/merged.json > out/merge.stdout || [ $? = 1 ]
jq -e '.summary.inconclusive == 1 and .summary.runs_saved == 30 and .options.repeat == "auto"' out/merged.json >/dev/null
jq -e '[.tests[].status] == ["pass","fail","inconclusive"]' out/merged.json >/dev/null
grep -q 'INCONCLUSIVE  borderline agent' out/merge.stdout
# --fail-fast: the broken agent's FAIL stops the run; a test it cuts before
# a verdict is INCONCLUSIVE and saves nothing (runs_saved counts decisions)
mkdir -p out/ff
"$MOCK" agui --scenario scenario.yaml --port-file out/ff/port >/dev/null 2>&1 & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s out/ff/port ] && break; sleep 0.05; done
rc=0
ANANKE_MOCK_URL="http://127.0.0.1:$(cat out/ff/port)/agent" "$ANANKE" run b.test.yaml c.test.yaml --repeat auto --pass-rate 0.8 --fail-fast --reporter json:out/ff/r.json > out/ff/stdout || rc=$?
[ "$rc" = 1 ]
jq -e '[.tests[] | .status] == ["fail"] and .summary.not_run == 1 and .summary.runs_saved == 18' out/ff/r.json >/dev/null
