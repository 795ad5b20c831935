# --last-failed reruns what failed or errored in the project's last run
# (.ananke/last-run.json beside the config)
set -e
rm -rf .ananke
trap 'rm -rf .ananke' EXIT
# no previous run: said, and every test runs (as pytest does)
"$ANANKE" run --last-failed --dry-run > out/first 2>&1
grep -qF -- '--last-failed: no previous run recorded' out/first
grep -qF 'dry run: 4 tests would run' out/first
# a dry run records nothing
[ ! -e .ananke ]
# run 1: two fail
rc=0; "$ANANKE" run > out/run1 2>&1 || rc=$?
[ "$rc" = 1 ]
jq -e '.failed == [{"file": "bad.test.yaml", "name": "fails"}, {"file": "cases.test.jsonl", "name": "F1"}]' .ananke/last-run.json >/dev/null
# run 2, from another directory: only those two run
mkdir -p out/elsewhere
rc=0; (cd out/elsewhere && "$ANANKE" run -c ../../ananke.config.yaml --last-failed -r json:../run2.json > ../run2 2>&1) || rc=$?
[ "$rc" = 1 ]
jq -e '[.tests[] | "\(.status) \(.name)"] == ["fail fails", "fail F1"]' out/run2.json >/dev/null
# the state that run wrote names the project's files, though the directory it
# ran in holds a file of the same relative name (a decoy the state must not name)
cp bad.test.yaml out/elsewhere/bad.test.yaml
rc=0; (cd out/elsewhere && "$ANANKE" run -c ../../ananke.config.yaml --last-failed > ../run2b 2>&1) || rc=$?
[ "$rc" = 1 ]
jq -e '.failed == [{"file": "bad.test.yaml", "name": "fails"}, {"file": "cases.test.jsonl", "name": "F1"}]' .ananke/last-run.json >/dev/null
rm -f out/elsewhere/bad.test.yaml
# run 3: a run that passes leaves no failure; --last-failed then runs nothing, exit 0
"$ANANKE" run good.test.yaml > out/run3 2>&1
jq -e '.failed == []' .ananke/last-run.json >/dev/null
rc=0; "$ANANKE" run --last-failed > out/run4 2>&1 || rc=$?
[ "$rc" = 0 ]
grep -qF -- '--last-failed: no test failed in the last run: nothing to run' out/run4
if grep -q 'PASS\|FAIL' out/run4; then exit 1; fi
# a state file that is not one is an error, not a silent full run
echo '[1]' > .ananke/last-run.json
rc=0; "$ANANKE" run --last-failed > out/run5 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF 'is not a run' out/run5
# a link in place of .ananke is not followed
rm -rf .ananke; mkdir -p out/target; ln -s out/target .ananke
rc=0; "$ANANKE" run good.test.yaml > out/run6 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -qF 'not saved for --last-failed' out/run6 && [ ! -e out/target/last-run.json ]
rm -f .ananke
echo ok
