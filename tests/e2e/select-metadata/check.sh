# seed 002's `metadata` object is accepted (and read past: its `tags` are
# not the case's tags); a `metadata` that is no object is an error
set -e
jq -e '[.tests[].tags] == [["smoke"], []]' out/results.json >/dev/null
"$ANANKE" run cases.test.jsonl --tag ignored > out/ign 2>&1 && exit 1
grep -qF 'no test selected (by --tag)' out/ign
printf '{"id": "B", "input": "hi", "metadata": "x"}\n' > out/bad.test.jsonl
rc=0; "$ANANKE" validate out/bad.test.jsonl > out/bad 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "out/bad.test.jsonl:1:28: 'metadata' must be an object" out/bad
echo ok
