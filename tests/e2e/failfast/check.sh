set -e
jq -e '.summary.not_run == 2' out/results.json >/dev/null
"$ANANKE" run . --filter 'step [34]' --reporter json:out/f.json >/dev/null
jq -e '[.tests[].name] == ["step 3", "step 4"]' out/f.json >/dev/null
set +e
"$ANANKE" run . --filter 'nothing matches' >/dev/null 2>&1; [ $? = 2 ] || exit 1
"$ANANKE" run . --filter '(' >/dev/null 2>&1; [ $? = 2 ] || exit 1
