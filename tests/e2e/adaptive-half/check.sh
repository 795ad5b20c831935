set -e
jq -e '.tests[0] | .status == "fail" and .runs == 2 and .passes == 1 and .max_runs == 30' out/r.json >/dev/null
jq -e '.summary.runs_saved == 28 and .options.max_repeats == 30' out/r.json >/dev/null
[ "$(grep -c coinflip out/requests.jsonl)" = 2 ]
# the flags that go together, and the values they take (exit 2, nothing run)
rc=0; "$ANANKE" run . --max-repeats 5 > out/bad1 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q -- '--max-repeats goes with --repeat auto' out/bad1
rc=0; "$ANANKE" run . --repeat auto --confidence 1 > out/bad2 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q -- "--confidence takes a share above 0.5 and below 1 (0.95 or 95%), not '1'" out/bad2
rc=0; "$ANANKE" run . --repeat auto --max-repeats 0 > out/bad3 2>&1 || rc=$?
[ "$rc" = 2 ]
rc=0; "$ANANKE" run . --repeat often > out/bad4 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q -- "--repeat takes a whole number from 1 to 100000 or 'auto', not 'often'" out/bad4
