# A history that cannot be written never fails a run: one warning, the
# run's own exit code (docs/history.md). The harness's command ran on a
# file of garbage (garbage.sqlite).
set -euo pipefail
fail() { echo "check: $*"; exit 1; }
[ "$(grep -c 'warning: history' out/stderr)" = 1 ] || fail "not one warning: $(cat out/stderr)"
[ "$(head -c 7 garbage.sqlite)" = garbage ] || fail "the garbage was changed"

# a failing run keeps its exit code 1 with a broken history
set +e
"$ANANKE" run . --history garbage.sqlite >out/fail.out 2>&1; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "^ananke: warning: history 'garbage.sqlite': cannot use it" out/fail.out ||
  fail "failing run: exit $rc $(cat out/fail.out)"

# a database another process holds with an exclusive lock: after the busy
# timeout (5 s) one warning, and the run passes
rm -f out/locked.sqlite*
"$ANANKE" run a.test.yaml --history out/locked.sqlite >/dev/null
{ echo 'BEGIN EXCLUSIVE; DELETE FROM findings;'; sleep 9; echo 'COMMIT;'; } | sqlite3 out/locked.sqlite & holder=$!
trap 'kill $holder 2>/dev/null || true' EXIT
sleep 0.5
set +e
"$ANANKE" run a.test.yaml --history out/locked.sqlite >out/locked.out 2>&1; rc=$?
set -e
[ "$rc" = 0 ] || fail "locked: exit $rc"
[ "$(grep -c 'warning: history' out/locked.out)" = 1 ] &&
  grep -q "^ananke: warning: history 'out/locked.sqlite': .*database is locked (another process holds it) (this run is not in it)" out/locked.out ||
  fail "locked: $(cat out/locked.out)"
kill $holder 2>/dev/null || true
wait $holder 2>/dev/null || true
[ "$(sqlite3 out/locked.sqlite 'SELECT count(*) FROM runs')" = 1 ] || fail "locked: a run was written"

# a place where no file can be made (its directory is a file)
: >out/afile
"$ANANKE" run a.test.yaml --history out/afile/h.sqlite >out/nodir.out 2>&1 || fail "nodir: $(cat out/nodir.out)"
grep -q "^ananke: warning: history 'out/afile/h.sqlite': its directory is not a directory (Not a directory) (this run is not in it)" out/nodir.out ||
  fail "nodir: $(cat out/nodir.out)"

# a link planted at the default .ananke/history.sqlite is not followed
rm -rf out/proj out/elsewhere && mkdir -p out/proj/.ananke
cp a.test.yaml out/proj/ && printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "${ENV.ANANKE_MOCK_URL}"\n  agentId: a\n' >out/proj/ananke.config.yaml
ln -s ../../elsewhere out/proj/.ananke/history.sqlite
(cd out/proj && ANANKE_HISTORY= "$ANANKE" run) >out/link.out 2>&1 || fail "link: $(cat out/link.out)"
grep -q "^ananke: warning: history '.*/out/proj/.ananke/history.sqlite': a link in its place is not followed" out/link.out ||
  fail "link: $(cat out/link.out)"
[ ! -e out/elsewhere ] || fail "link: the target was created"
# ... nor a link at .ananke itself
rm -rf out/proj/.ananke && mkdir -p out/elsewhere-dir && ln -s ../elsewhere-dir out/proj/.ananke
(cd out/proj && ANANKE_HISTORY= "$ANANKE" run --no-history) >/dev/null 2>&1 || true # last-run.json refuses it too
(cd out/proj && ANANKE_HISTORY= "$ANANKE" run) >out/link2.out 2>&1 || fail "link2: $(cat out/link2.out)"
grep -q "warning: history .*its directory is a link or not a directory (a link is not followed)" out/link2.out ||
  fail "link2: $(cat out/link2.out)"
[ -z "$(ls out/elsewhere-dir)" ] || fail "link2: wrote through the link"

# four processes appending at once lose nothing
rm -f out/par.sqlite*
pids=()
for i in 1 2 3 4; do
  "$ANANKE" run . --history out/par.sqlite >out/par$i.out 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
if grep -q 'warning: history' out/par*.out; then fail "parallel: $(cat out/par*.out)"; fi
[ "$(sqlite3 out/par.sqlite 'SELECT count(*) FROM runs')" = 4 ] &&
  [ "$(sqlite3 out/par.sqlite 'SELECT count(*) FROM test_results')" = 8 ] &&
  [ "$(sqlite3 out/par.sqlite 'SELECT count(*) FROM findings')" = 4 ] ||
  fail "parallel: $(sqlite3 out/par.sqlite 'SELECT id, passed, failed FROM runs')"
# --history wins over ANANKE_HISTORY=0 (the harness's)
[ "${ANANKE_HISTORY:-}" = 0 ] || fail "the harness should set ANANKE_HISTORY=0"
echo "history-broken: ok"
