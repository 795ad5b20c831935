set -e
R=out/r.json
# exactly the names of the issue, in this order
jq -e '.tests[1].stats | keys_unsorted == ["runs","passes","pass_rate","k","pass_at_k","pass_hat_k","ci_low","ci_high","ci_method","flaky"]' $R >/dev/null
# the sequence pass, pass, fail, pass, fail
jq -e '[.tests[1].attempts[].status] == ["pass","pass","fail","pass","fail"]' $R >/dev/null
# 3 of 5, k = 2: pass@2 = 1 - C(2,2)/C(5,2) = 0.9, pass^2 = C(3,2)/C(5,2) = 0.3;
# Clopper-Pearson 3/5 at 95 %: [0.1466, 0.9473] (published tables)
jq -e '.tests[1].stats | .runs == 5 and .passes == 3 and .pass_rate == 0.6 and .k == 2
  and (.pass_at_k - 0.9 | fabs) < 1e-12 and (.pass_hat_k - 0.3 | fabs) < 1e-12
  and (.ci_low - 0.1466 | fabs) < 1e-4 and (.ci_high - 0.9473 | fabs) < 1e-4
  and .ci_method == "clopper-pearson" and .flaky == true' $R >/dev/null
# 5 of 5: not flaky; the interval's low end is 0.025^(1/5) = 0.4782, its high 1
jq -e '.tests[0].stats | .flaky == false and .pass_hat_k == 1 and .pass_at_k == 1
  and (.ci_low - 0.4782 | fabs) < 1e-4 and .ci_high == 1' $R >/dev/null
jq -e '.tests[1].stability == "unstable" and .tests[1].status == "pass"' $R >/dev/null
jq -e '.summary.flaky == 1 and .summary.agent_calls == 10' $R >/dev/null
jq -e '.options.pass_k == 2 and .options.confidence == 0.95 and .options.fail_on_flaky == false' $R >/dev/null
# read back (merge): the same statistics and summary
"$ANANKE" merge $R --reporter json:out/m.json >out/merge.stdout
diff <(jq '[.tests[].stats], .summary' $R) <(jq '[.tests[].stats], .summary' out/m.json)
grep -q 'flaky, pass^2 30.0%, pass@2 90.0%, 95% CI \[14.7%, 94.7%\] (clopper-pearson)' out/merge.stdout
