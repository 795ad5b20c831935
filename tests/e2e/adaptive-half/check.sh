set -e
jq -e '.tests[0] | .status == "fail" and .runs == 2 and .passes == 1 and .max_runs == 30' out/r.json >/dev/null
jq -e '.summary.runs_saved == 28 and .options.max_repeats == 30' out/r.json >/dev/null
[ "$(grep -c coinflip out/requests.jsonl)" = 2 ]
