# The file digests of the run history (docs/history.md): file_digest and
# config_digest are the sha256 of the bytes the loader read, taken when it
# read them. A test that edits its own file and the config while it runs is
# recorded with the digests of what was loaded, not of the files as they
# are when the history is written; an untouched file's digest is what
# sha256sum says of it; every test of a JSONL file has that file's digest.
set -euo pipefail
unset ANANKE_HISTORY # the default: PROJECT/.ananke/history.sqlite
rm -rf out/proj && cp -r proj out/proj
db=out/proj/.ananke/history.sqlite
q() { sqlite3 -batch -noheader "$db" "$1"; }
fail() { echo "check: $*"; exit 1; }
sum() { sha256sum "$1" | cut -d' ' -f1; }

(cd out/proj && "$ANANKE" run --record ../rec) >out/r1 2>&1 || fail "run: $(cat out/r1)"
if grep -q 'warning: history' out/r1; then fail "a history warning: $(cat out/r1)"; fi
grep -q '^# edited$' out/proj/edits.test.yaml || fail "the hook did not edit its test file"
grep -q '^# edited$' out/proj/ananke.config.yaml || fail "the hook did not edit the config"

[ "$(q "SELECT file_digest FROM test_results WHERE name = 'plain'")" = "$(sum proj/plain.test.yaml)" ] ||
  fail "plain: $(q "SELECT file_digest FROM test_results WHERE name = 'plain'")"
# what ran: the file as loaded (proj/), not as edited since (out/proj/)
[ "$(q "SELECT file_digest FROM test_results WHERE name = 'edits'")" = "$(sum proj/edits.test.yaml)" ] ||
  fail "edits: $(q "SELECT file_digest FROM test_results WHERE name = 'edits'"), loaded $(sum proj/edits.test.yaml), now $(sum out/proj/edits.test.yaml)"
[ "$(q 'SELECT config_digest FROM runs')" = "$(sum proj/ananke.config.yaml)" ] ||
  fail "config: $(q 'SELECT config_digest FROM runs'), loaded $(sum proj/ananke.config.yaml), now $(sum out/proj/ananke.config.yaml)"
[ "$(q "SELECT group_concat(DISTINCT file_digest) FROM test_results WHERE file = 'cases.test.jsonl'")" = "$(sum proj/cases.test.jsonl)" ] ||
  fail "cases.test.jsonl: $(q "SELECT name, file, file_digest FROM test_results WHERE file = 'cases.test.jsonl'")"
[ "$(q "SELECT count(*) FROM test_results WHERE file = 'cases.test.jsonl'")" = 2 ] || fail "cases.test.jsonl rows"

# the next run loads the edited files: their digests now
(cd out/proj && "$ANANKE" run --filter plain) >out/r2 2>&1 || fail "run 2: $(cat out/r2)"
[ "$(q 'SELECT config_digest FROM runs WHERE id = 2')" = "$(sum out/proj/ananke.config.yaml)" ] ||
  fail "config of run 2"

# a replay judges the files as they are now (loaded by the replay): their digests
(cd out/proj && "$ANANKE" replay ../rec) >out/r3 2>&1 || fail "replay: $(cat out/r3)"
[ "$(q "SELECT kind||' '||file_digest FROM test_results t JOIN runs r ON r.id = t.run_id WHERE r.id = 3 AND name = 'edits'")" = \
  "replay $(sum out/proj/edits.test.yaml)" ] || fail "replay: $(q 'SELECT run_id, name, file_digest FROM test_results WHERE run_id = 3')"
[ "$(q 'SELECT config_digest FROM runs WHERE id = 3')" = "$(sum out/proj/ananke.config.yaml)" ] || fail "config of the replay"
