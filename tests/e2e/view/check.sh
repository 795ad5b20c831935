# ananke view end to end (docs/history.md "ananke view"): three runs of a
# project (the third recorded) against one mock whose answers change, then
# every page and its JSON fetched with curl from a server on a free port.
set -euo pipefail
unset ANANKE_HISTORY
rm -rf out/proj out/rec out/old.sqlite* out/linked.sqlite* && cp -r proj out/proj
db=out/proj/.ananke/history.sqlite
fail() { echo "check: $*"; exit 1; }
run() { (cd out/proj && "$ANANKE" run "$@"); }
set +e
run >out/r1 2>&1; r1=$?
run >out/r2 2>&1; r2=$?
run --record ../rec >out/r3 2>&1; r3=$?
set -e
[ "$r1$r2$r3" = 010 ] || fail "runs exit $r1 $r2 $r3, expected 0 1 0: $(cat out/r1 out/r2 out/r3)"
before=$(sha256sum "$db" | cut -d' ' -f1)

# the server: a free port, its address on standard output
"$ANANKE" view -c out/proj/ananke.config.yaml --port 0 >out/view.out 2>out/view.err &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q '^ananke view: http' out/view.out 2>/dev/null && break; sleep 0.05; done
url=$(sed -n 's|^ananke view: \(http://127\.0\.0\.1:[0-9]*/\) (Ctrl-C stops it)$|\1|p' out/view.out)
[ -n "$url" ] || fail "no address printed: $(cat out/view.out out/view.err)"
port=${url##*:}; port=${port%/}
get() { curl -sS --max-time 5 "$@"; }
code() { curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$@"; }
page() { get "$url$1" >"out/$2.html"; }
has() { grep -qF -- "$2" "out/$1.html" || fail "$1 lacks: $2"; }
lacks() { if grep -qiF -- "$2" "out/$1.html"; then fail "$1 holds: $2"; fi; }

# the runs, newest first; the filters
page "" runs
has runs '<a href="/runs/3">#3</a>'
has runs '<a href="/runs/1">#1</a>'
has runs '<a href="/compare/2/3">vs #2</a>'
page "?status=failing" failing
has failing '<a href="/runs/2">#2</a>'
lacks failing '<a href="/runs/3">'
page "?kind=replay" replay
has replay 'No run matches.'

# a run: failures first, search
page runs/2 run2
sed -n 's|.*<tr class="test"><td><span class="o o-\([a-z]*\)">.*tests/[0-9a-f]*">\([^<]*\)</a>.*|\1 \2|p' out/run2.html >out/run2.rows
[ "$(head -n1 out/run2.rows)" = "fail flip" ] || fail "run 2 does not show its failure first: $(cat out/run2.rows)"
[ "$(wc -l <out/run2.rows)" = 3 ] || fail "run 2 rows: $(cat out/run2.rows)"
page "runs/2?q=STEAD" search
[ "$(grep -c '<tr class="test">' out/search.html)" = 1 ] && has search '>steady</a>' || fail "search: $(cat out/search.html)"
has search 'value="STEAD"'

# the recorded run's page shows each test's tags (from the recording), escaped
page runs/3 run3
has run3 '<span class="tag">security</span> <span class="tag">&lt;u&gt;tag&lt;/u&gt;</span>'
lacks run3 '<u>'

# a test: hostile text escaped, never markup; tags; the sparkline; the conversation
hid=$(sqlite3 -batch -noheader "$db" "SELECT test_id FROM test_results WHERE name LIKE '<i>%' LIMIT 1")
page "runs/3/tests/$hid" hostile
has hostile '&lt;script&gt;alert(1)&lt;/script&gt;'
has hostile '&lt;img src=x onerror=alert(2)&gt;'
has hostile '&lt;b&gt;bold&lt;/b&gt;'
has hostile '<h1 id="name">&lt;i&gt;hostile&lt;/i&gt; &amp; &quot;quoted&quot;</h1>'
has hostile '<span class="tag">&lt;u&gt;tag&lt;/u&gt;</span>'
has hostile '<code>lookup</code>'
lacks hostile '<script'
lacks hostile '<img'
lacks hostile '<i>'
[ "$(grep -o '<rect ' out/hostile.html | wc -l)" = 3 ] || fail "the sparkline has not 3 runs"
fid=$(sqlite3 -batch -noheader "$db" "SELECT test_id FROM test_results WHERE name = 'flip' LIMIT 1")
page "runs/2/tests/$fid" flip2
grep -o '<rect class="[a-z ]*"' out/flip2.html | tr '\n' ' ' >out/flip2.spark
[ "$(cat out/flip2.spark)" = '<rect class="pass" <rect class="fail cur" <rect class="pass" ' ] ||
  fail "flip's sparkline: $(cat out/flip2.spark)"
has flip2 'id="findings"'
has flip2 'the run was not recorded'

# two runs side by side
page compare/1/2 cmp12
has cmp12 '<tr class="regressed">'
has cmp12 '1 tests changed outcome.'
page compare/2/3 cmp23
has cmp23 '<tr class="fixed">'

# the flaky table and the JSON
page flaky flaky
has flaky '<td>flip</td>'
get "${url}api/runs" | jq -e 'length == 3 and map(.id) == [3,2,1] and .[1].failed == 1' >/dev/null || fail "api/runs"
get "${url}api/runs?status=passing" | jq -e 'map(.id) == [3,1]' >/dev/null || fail "api/runs filter"
get "${url}api/flaky" | jq -e '.[0].name == "flip" and .[0].flips == 2' >/dev/null || fail "api/flaky"
get "${url}api/runs/3/tests/$hid" |
  jq -e '.test.outcome == "pass" and .recording.tool_calls[0].result == "<img src=x onerror=alert(2)>"' >/dev/null ||
  fail "api test"
get "${url}api/compare/1/2" | jq -e '.changed == 1 and (.tests[] | select(.name == "flip") | .change) == "regressed"' >/dev/null ||
  fail "api compare"

# what is refused: another Host (DNS rebinding), other methods, bodies, long input, what is not there
[ "$(code -H "Host: evil.example:$port" "$url")" = 421 ] || fail "a foreign Host is not refused"
[ "$(code -H "Host: evil.example" "$url")" = 421 ] || fail "a foreign Host without port is not refused"
[ "$(code -H "Host: localhost:$port" "$url")" = 200 ] || fail "localhost:PORT is refused"
[ "$(code -H "Host: 127.0.0.1:1" "$url")" = 421 ] || fail "another port is not refused"
[ "$(code -X POST "$url")" = 405 ] || fail "POST is not refused"
[ "$(code -X GET --data-binary x "$url")" = 413 ] || fail "a body is not refused"
[ "$(code "$url$(head -c 3000 /dev/zero | tr '\0' a)")" = 414 ] || fail "a long address is not refused"
[ "$(code "${url}runs/1?q=$(head -c 300 /dev/zero | tr '\0' a)")" = 400 ] || fail "a long search is not refused"
[ "$(code "${url}runs/99")" = 404 ] || fail "a missing run is not 404"
[ "$(code "${url}api/runs/99")" = 404 ] || fail "a missing run (api) is not 404"
[ "$(code "${url}runs/1/tests/0000000000000000")" = 404 ] || fail "a missing test is not 404"
[ "$(code "${url}runs/x")" = 404 ] || fail "runs/x is not 404"
[ "$(code "${url}../etc/passwd")" = 404 ] || fail "a path outside is not 404"
get -D out/headers -o /dev/null "$url"
grep -qi "^content-security-policy: default-src 'none'; style-src 'self'" out/headers || fail "no CSP: $(cat out/headers)"
grep -qi '^x-content-type-options: nosniff' out/headers || fail "no nosniff"
[ "$(code "${url}style.css")" = 200 ] || fail "no style sheet"

[ "$(curl -s --max-time 5 -I -o /dev/null -w '%{http_code}' "${url}runs/1")" = 200 ] || fail "HEAD is refused"
# a second server on the same port: exit 1, it says why
set +e
"$ANANKE" view -c out/proj/ananke.config.yaml --port "$port" >out/busy 2>&1; n=$?
set -e
[ "$n" = 1 ] && grep -q "cannot listen on 127.0.0.1:$port" out/busy || fail "a port in use: $n $(cat out/busy)"

# SIGTERM stops it cleanly; the database file was never written
kill -TERM $pid
wait $pid || fail "view exited $?"
trap - EXIT
grep -q '^ananke view: stopped$' out/view.out || fail "no 'stopped': $(cat out/view.out)"
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$before" ] || fail "the database changed"

# no history yet: exit 2
set +e
"$ANANKE" view --history out/none.sqlite >out/none 2>&1; n=$?
set -e
[ "$n" = 2 ] && grep -q "no history yet" out/none || fail "no history: $n $(cat out/none)"
# a link planted at the -wal companion is not followed: refused, exit 1
cp "$db" out/linked.sqlite
ln -sf /etc/passwd out/linked.sqlite-wal
set +e
"$ANANKE" view --history out/linked.sqlite --port 0 >out/linked 2>&1; n=$?
set -e
[ "$n" = 1 ] && grep -q "a companion file (-wal, -shm, -journal) is a link" out/linked || fail "linked -wal: $n $(cat out/linked)"
# an older schema (version 1) is refused, never migrated: the file stays as it was
sqlite3 out/old.sqlite "PRAGMA journal_mode=WAL; CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at INTEGER NOT NULL); PRAGMA user_version=1;" >/dev/null
old=$(sha256sum out/old.sqlite | cut -d' ' -f1)
set +e
"$ANANKE" view --history out/old.sqlite --port 0 >out/old 2>&1; n=$?
set -e
[ "$n" = 1 ] && grep -q "schema version 1, this ananke reads 4" out/old || fail "old schema: $n $(cat out/old)"
[ "$(sqlite3 out/old.sqlite 'PRAGMA user_version')" = 1 ] && [ "$(sha256sum out/old.sqlite | cut -d' ' -f1)" = "$old" ] ||
  fail "the old database was changed"
