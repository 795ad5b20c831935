set -e
# Wilson 7/10 at 95 %: [0.3968, 0.8922]; 0/10: [0, 0.2775]; 10/10: [0.7225, 1]
# (published tables, e.g. Newcombe 1998); pass^3 = C(7,3)/C(10,3) = 35/120
# JUnit: one property per statistic; the suite's agent calls
grep -q '<property name="ananke.pass_hat_k" value="0.291667"/>' out/j.xml
grep -q '<property name="ananke.pass_at_k" value="0.991667"/>' out/j.xml
grep -q '<property name="ananke.ci_low" value="0.396' out/j.xml
grep -q '<property name="ananke.ci_method" value="wilson"/>' out/j.xml
[ "$(grep -c '<property name="ananke.flaky" value="true"/>' out/j.xml)" = 1 ]
[ "$(grep -c '<property name="ananke.flaky" value="false"/>' out/j.xml)" = 2 ]
[ "$(grep -o 'ananke.agent_calls" value="[0-9]*' out/j.xml | awk -F'"' '{s += $3} END {print s}')" = 30 ]
# TAP: the block's statistics and the closing comments
grep -q '^  pass_hat_k: 0.2917$' out/r.tap
grep -q '^  ci_low: 0.3968$' out/r.tap
grep -q '^  ci_high: 0.8922$' out/r.tap
grep -q '^  ci_method: "wilson"$' out/r.tap
[ "$(grep -c '^  flaky: true$' out/r.tap)" = 1 ]
grep -q '^# 1 flaky test (runs that disagree)$' out/r.tap
grep -q '^# agent calls: 30$' out/r.tap
# Markdown: the stability table and the summary
grep -qF '| weather | 10 | 7 | 70.0% | unstable | **flaky** | pass^3 29.2% | pass@3 99.2% | 95% CI [39.7%, 89.2%] (wilson) |' out/r.md
grep -qF '| refund | 10 | 0 | 0.0% | highly unstable | no | pass^3 0% | pass@3 0% | 95% CI [0%, 27.8%] (wilson) |' out/r.md
grep -qF '1 repeated test was flaky (the runs disagree). 30 agent calls.' out/r.md
# HTML: the flaky badge and the statistics in the runs box, the agent calls
grep -qF 'FLAKY</span>' out/r.html
grep -qF '<div class="stats"><b>flaky</b>: its runs disagree · pass^3 29.2%, pass@3 99.2% · 95% CI [39.7%, 89.2%] (wilson)</div>' out/r.html
grep -qF '<dt>agent calls</dt><dd>30</dd>' out/r.html
# JSONL: the stability event carries the json reporter's stats
grep '"type":"stability"' out/r.jsonl | grep '"name":"weather"' | jq -e '.stats.flaky == true and .stats.ci_method == "wilson" and .stats.k == 3' >/dev/null
tail -n 1 out/r.jsonl | jq -e '.flaky == 1 and .agent_calls == 30' >/dev/null
# JSON
jq -e '[.tests[].stats.flaky] == [false, true, false] and .summary.agent_calls == 30' out/r.json >/dev/null
jq -e '.tests[2].stats | .passes == 0 and .pass_at_k == 0 and .ci_low == 0 and (.ci_high - 0.2775 | fabs) < 1e-4' out/r.json >/dev/null
# GitHub: the failed test's annotation carries its statistics too
grep -q '^::error file=refund.test.yaml,line=7,.*passed 0 of 10 runs; pass^3 0%25, pass@3 0%25, 95%25 CI \[0%25, 27.8%25\] (wilson)$' out/stdout
