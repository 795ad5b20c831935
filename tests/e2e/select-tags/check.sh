# --tag NAME (repeatable: any of them); tags in every report
set -e
jq -e '[.tests[] | {name, tags}] == [
  {"name": "C1", "tags": ["smoke", "http"]},
  {"name": "J1", "tags": ["smoke"]},
  {"name": "pays once", "tags": ["smoke", "payments"]},
  {"name": "slow report", "tags": ["slow"]}]' out/results.json >/dev/null
grep -q '<property name="ananke.tag" value="payments"/>' out/r.xml
[ "$(grep -c 'name="ananke.tag"' out/r.xml)" = 6 ]
grep -qF 'tags: ["smoke", "payments"]' out/r.tap
jq -se '[.[] | select(.type == "result") | .tags] == [["smoke","http"],["smoke"],["smoke","payments"],["slow"]]' out/r.jsonl >/dev/null
grep -qF 'pays once (tags: smoke, payments)' out/r.md
grep -qF '<span class="tag">payments</span>' out/page/index.html
# an unknown tag selects nothing: said, exit 2
rc=0; "$ANANKE" run . --tag nosuch > out/none 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF 'no test selected (by --tag)' out/none
# a bad tag is a load error at its place
mkdir -p out/bad && cp ../ananke.config.yaml out/bad/
printf 'version: "1.0"\ntags: ["two words"]\nturns:\n  - user: hi\n' > out/bad/x.test.yaml
rc=0; "$ANANKE" validate -c out/bad/ananke.config.yaml out/bad > out/bad.out 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "x.test.yaml:2:8: bad tag 'two words'" out/bad.out
echo ok
