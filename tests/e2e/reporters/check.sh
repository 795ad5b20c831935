set -e
X="$OUT/junit.xml"
# JUnit: one testcase per test, a failure for the FAIL, an error for the ERROR
[ "$(grep -c '<testcase ' "$X")" = 3 ]
[ "$(grep -c '<failure ' "$X")" = 1 ]
[ "$(grep -c '<error ' "$X")" = 1 ]
grep -q '<testsuites name="ananke" tests="3" failures="1" errors="1"' "$X"
grep -q 'name="passes &lt;with&gt; &quot;xml&quot; &amp; chars"' "$X"
grep -q 'type="AN_EHTTP"' "$X"
# no raw control characters in XML
! grep -q $'\x1b' "$X"
# JSON: statuses, summary, the transcript of the passing test
jq -e '.summary == {"total":3,"passed":1,"failed":1,"errors":1,"skipped":0,"inconclusive":0,"expected_failures":0,"stale":0,"not_run":0,"runs_saved":0,"flaky":0,"agent_calls":3}' "$OUT/r.json" >/dev/null
jq -e '[.tests[].status] == ["pass","fail","error"]' "$OUT/r.json" >/dev/null
jq -e '.tests[0].transcript.tool_calls[0].args.q == "<b>&\"quotes\"</b>"' "$OUT/r.json" >/dev/null
jq -e '.tests[1].findings[0] | .kind == "tools.require" and .turn == 1 and (.location | test("b.test.yaml:8:13"))' "$OUT/r.json" >/dev/null
jq -e '.tests[2].error.code == "AN_EHTTP" and .tests[2].error.turn == 1' "$OUT/r.json" >/dev/null
# colour was asked for: escapes present; the agent's own escape is shown escaped
grep -q $'\x1b\\[' "$OUT/stdout"
grep -qF '\u001b[2J' "$OUT/stdout"
# a JSON report read back by merge writes the same tests again, field for field
set +e; "$ANANKE" merge "$OUT/r.json" --reporter json:"$OUT/m.json" > "$OUT/merge.stdout"; rc=$?; set -e
[ $rc = 1 ]
diff <(jq .tests "$OUT/r.json") <(jq .tests "$OUT/m.json")
grep -q 'Tool "checkout" must be called' "$OUT/merge.stdout"
# on GitHub Actions every failure is also an annotation at the assertion's line
set +e; GITHUB_ACTIONS=true "$ANANKE" run . > "$OUT/gha.stdout" 2>&1; set -e
grep -q '^::error file=b.test.yaml,line=8,col=13,title=FAIL fails on purpose::' "$OUT/gha.stdout"
grep -q '^::error file=c.test.yaml,line=1' "$OUT/gha.stdout"
! grep -q '^::error' "$OUT/stdout"   # not outside GitHub Actions
# TAP and HTML from the same run
"$ANANKE" merge "$OUT/r.json" --reporter tap:"$OUT/r.tap" --reporter html:"$OUT/html" >/dev/null || true
grep -q '^not ok 2 - fails on purpose' "$OUT/r.tap"
grep -q '^1..3' "$OUT/r.tap"
grep -q 'fails on purpose' "$OUT/html/index.html"
