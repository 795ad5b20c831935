# PATH:LINE: any line of a YAML file is its test; a JSONL line is the case
# written there; a cases.json line is the case that holds it. A file named
# with no line runs whole beside one named with lines.
set -e
"$ANANKE" run cases.test.jsonl:2 a.test.yaml -r json:out/mix.json > out/mix 2>&1
jq -e '[.tests[].name] == ["L2", "yaml test"]' out/mix.json >/dev/null
"$ANANKE" run ./a.test.yaml:1 --dry-run > out/dot 2>&1
grep -qF 'dry run: 1 test would run' out/dot
rc=0; "$ANANKE" run cases.test.jsonl:4 > out/blank 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "cases.test.jsonl:4: no case is written on line 4 of 'cases.test.jsonl'" out/blank
rc=0; "$ANANKE" run a.test.yaml:40 > out/past 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "a.test.yaml:40: 'a.test.yaml' has 4 lines" out/past
rc=0; "$ANANKE" run cases.json:1 > out/before 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "cases.json:1: no case holds line 1 of 'cases.json'" out/before
rc=0; "$ANANKE" run a.test.yaml:0 > out/zero 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "lines are numbered from 1" out/zero
echo ok
