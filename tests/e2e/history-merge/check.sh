# `ananke merge` in the history (docs/history.md "Merged runs"): two rounds
# of two shards on one machine, each merged. The merged run is appended
# (kind merge, one row per test) and the shards it joined are marked
# merged_into it, so --test, --flaky and --slowest count each test once a
# round; a merge into another history stands alone; --no-history adds
# nothing.
set -euo pipefail
unset ANANKE_HISTORY # the default: PROJECT/.ananke/history.sqlite
rm -rf out/proj && cp -r proj out/proj
db=out/proj/.ananke/history.sqlite
q() { sqlite3 -batch -noheader "$db" "$1"; }
h() { "$ANANKE" history -c out/proj/ananke.config.yaml "$@"; }
fail() { echo "check: $*"; exit 1; }
# round R: both shards (json results), then the merge, all in the project
round() {
  local r=$1 s
  for s in 1 2; do
    (cd out/proj && "$ANANKE" run --shard "$s/2" --reporter "json:../r$r-s$s.json") >"out/r$r-s$s.log" 2>&1 || true
  done
  (cd out/proj && "$ANANKE" merge "../r$r-s1.json" "../r$r-s2.json") >"out/r$r-merge.log" 2>&1 || true
}
round 1
round 2
if grep -q 'warning: history' out/r*.log; then fail "a history warning: $(cat out/r*.log)"; fi

# the runs: shard, shard, merge per round; the shards point at their merge
[ "$(q "SELECT group_concat(id||':'||kind||':'||ifnull(shard,'-')||':'||ifnull(merged_into,'-'), ' ') FROM runs")" = \
  "1:run:1/2:3 2:run:2/2:3 3:merge:-:- 4:run:1/2:6 5:run:2/2:6 6:merge:-:-" ] ||
  fail "runs: $(q "SELECT id, kind, shard, merged_into FROM runs")"
# the merged run: one row per test, its totals, its command line
[ "$(q "SELECT count(*)||' '||group_concat(name||'='||outcome, ',') FROM (SELECT * FROM test_results WHERE run_id = 6 ORDER BY name)")" = \
  "4 a=pass,b=pass,c=pass,flip=fail" ] || fail "merged tests: $(q 'SELECT name, outcome FROM test_results WHERE run_id = 6')"
[ "$(q "SELECT passed||'/'||failed||' '||command FROM runs WHERE id = 6")" = "3/1 ananke merge ../r2-s1.json ../r2-s2.json" ] ||
  fail "merged run: $(q 'SELECT passed, failed, command FROM runs WHERE id = 6')"
# the file digest of a merged test: its file's, so --flaky tells an edit from a flip
[ "$(q "SELECT file_digest FROM test_results WHERE run_id = 6 AND name = 'a'")" = "$(sha256sum out/proj/a.test.yaml | cut -d' ' -f1)" ] ||
  fail "digest of a merged test"

# each test counted once a round
h --test flip --json | jq -e 'map(.run_id) == [6, 3] and map(.outcome) == ["fail", "pass"]' >/dev/null ||
  fail "--test flip: $(h --test flip --json)"
h --flaky --json | jq -e 'length == 1 and .[0].name == "flip" and .[0].runs == 2 and .[0].flips == 1 and
  .[0].flip_rate == 1 and .[0].last_outcome == "fail"' >/dev/null || fail "--flaky: $(h --flaky --json)"
h --slowest --json | jq -e 'length == 4 and all(.[]; .runs == 2)' >/dev/null || fail "--slowest: $(h --slowest --json)"
h --regressed-since 3 --json | jq -e 'length == 1 and .[0].name == "flip" and .[0].run_id == 6 and
  .[0].first_failed_run == 6' >/dev/null || fail "--regressed-since: $(h --regressed-since 3 --json)"
h --json | jq -e '.[0].kind == "merge" and .[0].merged_into == null and .[1].merged_into == 6' >/dev/null ||
  fail "runs JSON: $(h --json)"
h | sed -n 2p | grep -q '^#5 .* run .*merged into #6$' || fail "runs text: $(h)"

# a merge into another history (the shards ran elsewhere): it stands alone
(cd out/proj && "$ANANKE" merge --history ../other.sqlite ../r1-s1.json ../r1-s2.json) >out/other.log 2>&1 ||
  fail "merge --history: $(cat out/other.log)"
[ "$(sqlite3 out/other.sqlite "SELECT kind||' '||passed||' '||(SELECT count(*) FROM test_results) FROM runs")" = "merge 4 4" ] ||
  fail "other history: $(sqlite3 out/other.sqlite 'SELECT kind, passed FROM runs')"
[ "$(q 'SELECT count(*) FROM runs WHERE merged_into IS NULL')" = 2 ] || fail "merge --history marked this history's runs"
# --no-history and ANANKE_HISTORY=0 add nothing
(cd out/proj && "$ANANKE" merge --no-history ../r1-s1.json ../r1-s2.json) >/dev/null 2>&1
(cd out/proj && ANANKE_HISTORY=0 "$ANANKE" merge ../r1-s1.json ../r1-s2.json) >/dev/null 2>&1
[ "$(q 'SELECT count(*) FROM runs')" = 6 ] || fail "--no-history wrote a run"
# merging again what was merged marks nothing twice
(cd out/proj && "$ANANKE" merge ../r1-s1.json ../r1-s2.json) >/dev/null 2>&1 || true
[ "$(q 'SELECT group_concat(merged_into) FROM runs WHERE id IN (1, 2)')" = "3,3" ] || fail "remerge moved the marks"
echo "history-merge: ok"
