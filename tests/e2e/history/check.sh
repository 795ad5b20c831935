# The run history end to end (docs/history.md): four runs of a project
# against one mock whose answers change between runs, then what the
# database holds and what `ananke history` says of it.
set -euo pipefail
unset ANANKE_HISTORY # the default: PROJECT/.ananke/history.sqlite
rm -rf out/proj && cp -r proj out/proj
db=out/proj/.ananke/history.sqlite
q() { sqlite3 -batch -noheader "$db" "$1"; }
h() { "$ANANKE" history -c out/proj/ananke.config.yaml "$@"; }
fail() { echo "check: $*"; exit 1; }
run() { (cd out/proj && "$ANANKE" run "$@"); }

# run 1: everything passes; a secret on the command line is redacted
run --redact hunter2 --filter '.*|hunter2' >out/r1 2>&1 || fail "run 1: $(cat out/r1)"
# runs 2 and 3: flip fails then passes again, regress fails from now on
set +e
run >out/r2 2>&1; r2=$?
run >out/r3 2>&1; r3=$?
h --regressed-since 1 --json >out/regressed.json
set -e
[ "$r2" = 1 ] && [ "$r3" = 1 ] || fail "runs 2 and 3 exit $r2 $r3, expected 1 1"
# run 4: regress.test.yaml edited to expect what the agent says now: it
# passes, and that change is no flip (its file changed)
sed -i 's|/^ok\$/|/^broken$/|' out/proj/regress.test.yaml
run --record ../rec >out/r4 2>&1 || fail "run 4: $(cat out/r4)"
if grep -q 'warning: history' out/r1 out/r2 out/r3 out/r4; then fail "a history warning"; fi

# the file: 0600 in a 0700 .ananke/, schema version 4
[ "$(stat -c %a out/proj/.ananke)" = 700 ] || fail ".ananke is $(stat -c %a out/proj/.ananke)"
[ "$(stat -c %a "$db")" = 600 ] || fail "history.sqlite is $(stat -c %a "$db")"
[ "$(q 'PRAGMA user_version')" = 4 ] || fail "user_version $(q 'PRAGMA user_version')"
[ "$(q 'PRAGMA journal_mode')" = wal ] || fail "journal_mode $(q 'PRAGMA journal_mode')"
[ "$(q 'SELECT count(*) FROM runs')" = 4 ] || fail "runs: $(q 'SELECT count(*) FROM runs')"
[ "$(q 'SELECT count(*) FROM test_results')" = 20 ] || fail "test_results"
[ "$(q "SELECT group_concat(passed||'/'||failed||'/'||errors||'/'||skipped, ' ') FROM runs")" = \
  "5/0/0/0 3/2/0/0 4/1/0/0 5/0/0/0" ] || fail "totals $(q "SELECT group_concat(passed||'/'||failed, ' ') FROM runs")"
# counters of a passing test: one tool call, one turn, a time to first token
[ "$(q "SELECT tool_calls||' '||turns||' '||(ttft_ms IS NOT NULL) FROM test_results WHERE name='steady' AND run_id=1")" = "1 1 1" ] ||
  fail "steady's counters: $(q "SELECT tool_calls, turns, ttft_ms FROM test_results WHERE name='steady' AND run_id=1")"
# the finding of run 2's failure, its config digest, the secret redacted
q "SELECT assertion FROM findings JOIN test_results t ON t.id = result_id WHERE t.name='flip'" | grep -q . ||
  fail "flip's finding"
[ "$(q 'SELECT config_digest FROM runs WHERE id=1')" = "$(sha256sum out/proj/ananke.config.yaml | cut -d' ' -f1)" ] ||
  fail "config digest"
[ "$(q 'SELECT command FROM runs WHERE id=1')" = "ananke run --redact [redacted] --filter .*|[redacted]" ] ||
  fail "command: $(q 'SELECT command FROM runs WHERE id=1')"
if cat out/proj/.ananke/history.sqlite* | grep -qa hunter2; then fail "the secret is in the database"; fi
# the hostile name: stored as written (cut to max_history_text_bytes: 64), no table dropped
[ "$(q "SELECT length(CAST(name AS BLOB)) FROM test_results WHERE name LIKE 'evil%' LIMIT 1")" = 64 ] ||
  fail "the long name is not cut to 64 bytes"
# git: the commit and branch of the checkout (read from .git, a worktree's too)
if commit=$(git rev-parse HEAD 2>/dev/null); then
  [ "$(q 'SELECT git_commit FROM runs WHERE id=4')" = "$commit" ] || fail "git_commit $(q 'SELECT git_commit FROM runs WHERE id=4') != $commit"
  branch=$(git rev-parse --abbrev-ref HEAD)
  [ "$branch" = HEAD ] || [ "$(q 'SELECT git_branch FROM runs WHERE id=4')" = "$branch" ] || fail "git_branch"
fi
# the recording's pointer (absolute)
[ "$(q 'SELECT recording FROM runs WHERE id=4')" = "$(cd out/rec && pwd)" ] || fail "recording $(q 'SELECT recording FROM runs WHERE id=4')"

# ananke history: the runs, newest first
h >out/runs.txt
[ "$(wc -l <out/runs.txt)" = 4 ] && head -n1 out/runs.txt | grep -q '^#4 .* run .*5 passed, 0 failed, 0 errors, 0 skipped' ||
  fail "runs: $(cat out/runs.txt)"
grep -q "recorded in $(cd out/rec && pwd)" out/runs.txt || fail "no recording in: $(cat out/runs.txt)"
h --json >out/runs.json
jq -e 'length == 4 and (map(.id) == [4,3,2,1]) and .[1].failed == 1 and .[2].failed == 2' out/runs.json >/dev/null ||
  fail "runs JSON: $(cat out/runs.json)"
# one test over time
h --test flip --json | jq -e 'map(.outcome) == ["pass","pass","fail","pass"] and .[2].finding != null' >/dev/null ||
  fail "--test flip: $(h --test flip --json)"
h --test flip | sed -n 3p | grep -q '^#2 .* fail ' || fail "--test flip text: $(h --test flip)"
# flaky: flip changed twice in 4 runs; regress once (the edit is no flip)
h --flaky --json >out/flaky.json
jq -e 'length == 2 and .[0].name == "flip" and .[0].runs == 4 and .[0].flips == 2 and
       (.[0].flip_rate * 1000 | round) == 667 and .[0].last_outcome == "pass" and
       .[1].name == "regress" and .[1].flips == 1 and .[1].file == "regress.test.yaml"' out/flaky.json >/dev/null ||
  fail "flaky: $(cat out/flaky.json)"
h --flaky | head -n1 | grep -q '^flip rate 0.67  2 flips in 4 runs  last pass  flip (flip.test.yaml)$' ||
  fail "flaky text: $(h --flaky)"
# each test's last 2 runs: flip passed in both, regress's change came with an edit
h --flaky --runs 2 --json | jq -e 'length == 0' >/dev/null || fail "flaky --runs 2: $(h --flaky --runs 2 --json)"
# slowest: the 150 ms one first
h --slowest --json | jq -e '.[0].name == "slow" and .[0].runs == 4 and .[0].mean_ms >= 150' >/dev/null ||
  fail "slowest: $(h --slowest --json)"
# regressed since run 1 (asked after run 3): regress, failing since run 2
jq -e 'length == 1 and .[0].name == "regress" and .[0].first_failed_run == 2 and .[0].since_run == 1' out/regressed.json >/dev/null ||
  fail "regressed: $(cat out/regressed.json)"
h --regressed-since 1 | grep -qx 'no test regressed since then' || fail "regressed after the edit"
set +e
h --regressed-since zzzz >out/badref 2>&1; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "no run at 'zzzz' in the history" out/badref || fail "a bad ref: $rc $(cat out/badref)"
# the hostile name in the terminal: its escape byte shown as '?'
h --slowest | grep -q "evil'); DROP TABLE runs; -- ?\[31m" || fail "escape in: $(h --slowest)"

# prune
h prune --older-than 1d | grep -qx 'pruned 0 runs' || fail "prune --older-than"
h prune --keep 2 | grep -qx 'pruned 2 runs' || fail "prune --keep"
[ "$(q 'SELECT group_concat(id) FROM runs')" = "3,4" ] && [ "$(q 'SELECT count(*) FROM test_results')" = 10 ] &&
  [ "$(q 'SELECT count(*) FROM findings f LEFT JOIN test_results t ON t.id = f.result_id WHERE t.id IS NULL')" = 0 ] ||
  fail "after prune: $(q 'SELECT id FROM runs')"

# a replay and a comply run are appended too
(cd out/proj && "$ANANKE" replay ../rec) >out/replay.out 2>&1 || fail "replay: $(cat out/replay.out)"
[ "$(q "SELECT kind||' '||passed||' '||(recording IS NOT NULL) FROM runs ORDER BY id DESC LIMIT 1")" = "replay 5 1" ] ||
  fail "replay: $(q 'SELECT kind, passed, recording FROM runs ORDER BY id DESC LIMIT 1')"
suites=$(cd ../../../compliance/acp && pwd)
mkdir -p out/comply && rm -f out/comply/.ananke/history.sqlite*
(cd out/comply && "$ANANKE" comply --timeout-scale 0.2 -t required.initialize --agent m="$MOCK acp" \
   "$suites") >out/comply.out 2>&1 || fail "comply: $(cat out/comply.out)"
[ "$(sqlite3 out/comply/.ananke/history.sqlite "SELECT r.kind||' '||t.name||' '||t.outcome FROM runs r JOIN test_results t ON t.run_id = r.id")" = \
  "comply m/required.initialize pass" ] || fail "comply: not in its history"
h prune --keep 2 >/dev/null

# --no-history and ANANKE_HISTORY=0 add nothing
run --no-history >/dev/null 2>&1 || true
ANANKE_HISTORY=0 run >/dev/null 2>&1 || true
[ "$(q 'SELECT count(*) FROM runs')" = 2 ] || fail "--no-history wrote a run"
echo "history: ok"
