# The caps of `ananke view` from the config's view: block (docs/view.md
# "Caps"), each hit: a list cut at view.max_rows says so (a note, the
# JSON's "truncated", a header), an answer over view.max_page_bytes is a
# 500 naming the key, a recording over view.max_results_bytes is named on
# the test's page, view.max_connections refuses one more connection and
# view.idle_timeout_ms closes an idle one; a bad value is an error at its
# place (exit 2).
set -euo pipefail
unset ANANKE_HISTORY
rm -rf out/proj out/rec && cp -r ../view/proj out/proj
db=out/proj/.ananke/history.sqlite
fail() { echo "check: $*"; exit 1; }
run() { (cd out/proj && "$ANANKE" run "$@"); }
run >out/r1 2>&1 || true
run >out/r2 2>&1 || true
run --record ../rec >out/r3 2>&1 || true
[ "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 3 ] || fail "3 runs: $(cat out/r1 out/r2 out/r3)"
pid=""
trap '[ -z "$pid" ] || kill $pid 2>/dev/null || true' EXIT
# serve CONFIG: the server with that config's caps, its address in $url
serve() {
  [ -z "$pid" ] || { kill $pid; wait $pid || true; }
  "$ANANKE" view -c "$1" --history "$db" --port 0 >out/view.out 2>out/view.err &
  pid=$!
  url=""
  for _ in $(seq 100); do grep -q '^ananke view: http' out/view.out 2>/dev/null && break; sleep 0.05; done
  url=$(sed -n 's|^ananke view: \(http://127\.0\.0\.1:[0-9]*/\) .*|\1|p' out/view.out)
  [ -n "$url" ] || fail "$1: no address: $(cat out/view.out out/view.err)"
  port=${url##*:}; port=${port%/}
}
get() { curl -sS --max-time 5 "$@"; }
code() { curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$@"; }

# view.max_rows: 2 of the 3 runs, and the page, the JSON say the list was cut
serve rows.yaml
get "$url" >out/rows.html
[ "$(grep -o '<a href="/runs/[0-9]*">#' out/rows.html | tr -d '\n')" = '<a href="/runs/3">#<a href="/runs/2">#' ] ||
  fail "max_rows: $(cat out/rows.html)"
grep -q '<p class="note" id="cut">Only the first 2 rows are shown: the list is cut at <code>view.max_rows</code>' out/rows.html ||
  fail "no note naming view.max_rows"
get -D out/rows.h "${url}api/runs" | jq -e 'length == 2' >/dev/null || fail "api/runs under max_rows"
grep -qi '^x-ananke-truncated: view.max_rows' out/rows.h || fail "no truncated header: $(cat out/rows.h)"
# a list that fits says nothing
get -D out/rows2.h "${url}api/runs?status=failing" >/dev/null
if grep -qi 'x-ananke-truncated' out/rows2.h; then fail "a whole list said it was cut"; fi
get "${url}api/runs/1" | jq -e 'has("truncated") | not' >/dev/null || fail "run 1 says truncated"

# view.max_page_bytes: the runs page is over 1000 bytes; the answer names the key
serve page.yaml
[ "$(code "$url")" = 500 ] || fail "max_page_bytes: not 500"
get "$url" | grep -q 'the answer is larger than view.max_page_bytes (1000 bytes' || fail "page: $(get "$url")"
get "${url}api/runs" | jq -e '.status == 500 and (.error | contains("view.max_page_bytes"))' >/dev/null ||
  fail "api: $(get "${url}api/runs")"
[ "$(code "${url}style.css")" = 200 ] || fail "the style sheet is not an answer"

# view.max_results_bytes: the recording is larger than 100 bytes
serve results.yaml
hid=$(sqlite3 -batch -noheader "$db" "SELECT test_id FROM test_results WHERE run_id = 3 AND name = 'steady'")
get "${url}runs/3/tests/$hid" | grep -q "the run&#39;s recording is too large to show: its results.json is larger than view.max_results_bytes\|the run's recording is too large to show: its results.json is larger than view.max_results_bytes" ||
  fail "max_results_bytes: $(get "${url}runs/3/tests/$hid")"
get "${url}api/runs/3/tests/$hid" | jq -e '.recording == null and (.recording_note | contains("view.max_results_bytes"))' >/dev/null ||
  fail "api max_results_bytes"

# view.max_connections 2: two idle connections held, a third is refused;
# view.idle_timeout_ms 1000: the idle ones are closed after a second
serve conns.yaml
[ "$(code "$url")" = 200 ] || fail "conns: the server does not answer"
exec 3<>"/dev/tcp/127.0.0.1/$port" 4<>"/dev/tcp/127.0.0.1/$port"
sleep 0.3
[ "$(code "$url")" = 000 ] || fail "a third connection was served past view.max_connections"
set +e
read -r -t 4 -u 3 _; r3=$?
set -e
[ "$r3" = 1 ] || fail "an idle connection was not closed after view.idle_timeout_ms ($r3)"
exec 3<&- 4<&-
sleep 0.2
[ "$(code "$url")" = 200 ] || fail "not served once the idle ones were closed"

# a bad cap: an error at its place, exit 2 (the case's cmd: max_rows 0)
set +e
"$ANANKE" view -c bad-key.yaml --history "$db" >out/badkey 2>&1; n=$?
set -e
[ "$n" = 2 ] && grep -q "bad-key.yaml:7:3: unknown key 'max_row'" out/badkey || fail "bad key: $n $(cat out/badkey)"
# a broken config found by walking up (not named with -c) does not hide the
# history: its errors are shown, and the view starts with the default caps
cp out/proj/ananke.config.yaml out/proj/good.yaml
printf 'version: "1.0"\ntarget: [\n' >out/proj/ananke.config.yaml
(cd out/proj && exec "$ANANKE" view --port 0) >out/found.out 2>out/found.err &
pid=$!
for _ in $(seq 100); do grep -q '^ananke view: http' out/found.out 2>/dev/null && break; sleep 0.05; done
url=$(sed -n 's|^ananke view: \(http://127\.0\.0\.1:[0-9]*/\) .*|\1|p' out/found.out)
cp out/proj/good.yaml out/proj/ananke.config.yaml
[ -n "$url" ] || fail "a broken found config stopped the view: $(cat out/found.out out/found.err)"
grep -q "ananke.config.yaml:3:1: invalid YAML" out/found.err || fail "no error at its place: $(cat out/found.err)"
grep -q "warning: view: .*ananke.config.yaml has 1 error (above); the view starts with its default caps" out/found.err ||
  fail "no warning: $(cat out/found.err)"
get "${url}api/runs" | jq -e 'length == 3' >/dev/null || fail "the history under a broken config"
echo "view-caps: ok"
