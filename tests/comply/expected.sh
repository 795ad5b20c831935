#!/usr/bin/env bash
# `ananke comply --expected-failures FILE` (docs/comply.md "Expected
# failures") against `ananke-mock a2a`, whose tests cite requirement IDs:
#  1. a listed test that fails (by test id, by requirement id) is `xfail` in
#     the JSON report, XFAIL on its progress line, and the run exits 0;
#  2. a listed test that passes, and a listed requirement whose tests all
#     pass, are `stale` and exit 1;
#  3. a bad file: exit 2 with file:line:col;
#  4. without the file, the JSON statuses are the issue's names (`fail`);
#  5. interrupted: the tests that had not started are `skip`, with why.
#
#   ANANKE_BUILD=build tests/comply/expected.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
pids=()
trap 'stop_pids "${pids[@]}"; rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-expected # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_jq
[ -x "$MOCK" ] || broken "$MOCK not built (make build)"

start() { # NAME MOCK-ARGS...: the mock's base URL in $url
    local name=$1
    shift
    spawn_server "$TMP/$name.port" 0.1 "$TMP/$name.out" "$TMP/$name.err" \
        timeout -k 5 120 "$MOCK" a2a --version 0.3 "$@" --port 0 --port-file "$TMP/$name.port"
    local started=$?
    pids+=("$spawned_pid")
    [ "$started" -eq 0 ] || broken "the $name mock did not start: $(head -c 300 "$TMP/$name.err")"
    url="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/$name.port")"
}
status() { # TEST-ID FILE.json
    jq -r --arg id "$1" '.agents[0].tests[] | select(.id == $id) | .status' "$2"
}
# comply NAME URL OUT XFAIL-FILE|"" TEST...: exit code in $rc
comply() {
    local name=$1 u=$2 out=$3 xf=$4
    shift 4
    local args=()
    for t in "$@"; do args+=(-t "$t"); done
    [ -n "$xf" ] && args+=(--expected-failures "$xf")
    "$ANANKE" comply --protocol a2a --timeout-scale 0.3 --agent "$name=$u" "${args[@]}" \
        -r json:"$TMP/$out.json" -r junit:"$TMP/$out.xml" >"$TMP/$out.md" 2>"$TMP/$out.err"
    rc=$?
}

start noname --fault card-no-name
noname=$url
start wrongcode --fault wrong-error-code
wrongcode=$url
start clean
clean=$url

# 4. no file: the names of the issue
comply f "$noname" plain "" required.card.name
[ "$rc" -eq 1 ] && [ "$(status required.card.name "$TMP/plain.json")" = fail ] &&
    ok "no file: exit 1, status fail" || bad "no file: exit $rc, $(status required.card.name "$TMP/plain.json")"

# 1. by test id, with a reason
cat >"$TMP/x1.yaml" <<'YAML'
# known deviations
f:
  - required.card.name: the mock is told to drop it
YAML
comply f "$noname" x1 "$TMP/x1.yaml" required.card.name
[ "$rc" -eq 0 ] && ok "xfail by id: exit 0" || bad "xfail by id: exit $rc (want 0)"
[ "$(status required.card.name "$TMP/x1.json")" = xfail ] && ok "xfail by id: status xfail" ||
    bad "xfail by id: $(status required.card.name "$TMP/x1.json")"
jq -e --arg w "required.card.name ($TMP/x1.yaml:3:5): the mock is told to drop it" \
    '.agents[0].tests[0].expected_failure == $w and .summary.xfail == 1 and .summary.failed == 0' \
    "$TMP/x1.json" >/dev/null && ok "xfail by id: the entry, its place and reason in the json" ||
    bad "xfail by id: $(jq -c '[.agents[0].tests[0].expected_failure, .summary]' "$TMP/x1.json")"
grep -q '^comply: f required.card.name XFAIL ' "$TMP/x1.err" && ok "xfail by id: progress line XFAIL" ||
    bad "xfail by id: progress: $(grep required.card.name "$TMP/x1.err")"
grep -q '<skipped message="expected failure: required.card.name' "$TMP/x1.xml" &&
    ok "xfail by id: junit skipped" || bad "xfail by id: junit"
# the requirement it cites is still not met: an expected failure is a failure
[ "$(jq -r '.agents[0].requirements["A2A-CARD-002"].status' "$TMP/x1.json")" = not_met ] &&
    ok "xfail by id: A2A-CARD-002 still not_met" || bad "xfail by id: requirement status"

# 1. by requirement id
printf 'f:\n  - A2A-ERR-001\n' >"$TMP/x2.yaml"
comply f "$wrongcode" x2 "$TMP/x2.yaml" required.get.not-found
[ "$rc" -eq 0 ] && [ "$(status required.get.not-found "$TMP/x2.json")" = xfail ] &&
    ok "xfail by requirement: exit 0, xfail" ||
    bad "xfail by requirement: exit $rc, $(status required.get.not-found "$TMP/x2.json")"

# 2. stale: a listed test that passes, a listed requirement met
printf 'ok:\n  - required.card.name: was broken once\n' >"$TMP/s1.yaml"
comply ok "$clean" s1 "$TMP/s1.yaml" required.card.name
[ "$rc" -eq 1 ] && [ "$(status required.card.name "$TMP/s1.json")" = stale ] &&
    ok "stale by id: exit 1, stale" || bad "stale by id: exit $rc, $(status required.card.name "$TMP/s1.json")"
grep -q '^comply: ok required.card.name STALE ' "$TMP/s1.err" && ok "stale by id: progress line STALE" ||
    bad "stale by id: progress: $(grep required.card.name "$TMP/s1.err")"
grep -q '<failure type="stale"' "$TMP/s1.xml" && ok "stale by id: junit failure" || bad "stale by id: junit"
printf 'ok:\n  - A2A-ERR-001\n' >"$TMP/s2.yaml"
comply ok "$clean" s2 "$TMP/s2.yaml" required.get.not-found
[ "$rc" -eq 1 ] && [ "$(status required.get.not-found "$TMP/s2.json")" = stale ] &&
    grep -q "expected failure 'A2A-ERR-001' ($TMP/s2.yaml:2:5) is STALE" "$TMP/s2.err" &&
    ok "stale by requirement: exit 1, stale, said" ||
    bad "stale by requirement: exit $rc, $(status required.get.not-found "$TMP/s2.json")"
# an entry that matched nothing is a warning, not a failure
printf 'ok:\n  - no.such.test\nghost:\n  - x\n' >"$TMP/w.yaml"
comply ok "$clean" w "$TMP/w.yaml" required.card.name
[ "$rc" -eq 0 ] && grep -q "warning: expected failure 'no.such.test' ($TMP/w.yaml:2:5) matched no test" "$TMP/w.err" &&
    grep -q "expected failure 'x' ($TMP/w.yaml:4:5) names agent 'ghost'" "$TMP/w.err" &&
    ok "unmatched entries: warnings, exit 0" || bad "unmatched entries: exit $rc: $(cat "$TMP/w.err")"

# 3. bad files: exit 2, file:line:col
bad_file() { # CONTENT WANT
    printf '%b' "$1" >"$TMP/bad.yaml"
    "$ANANKE" comply --protocol a2a --agent "x=$clean" --expected-failures "$TMP/bad.yaml" \
        >/dev/null 2>"$TMP/bad.err"
    local r=$?
    [ "$r" -eq 2 ] && grep -qF -- "$TMP/bad.yaml:$2" "$TMP/bad.err" && ok "bad file: exit 2, $2" ||
        bad "bad file ($2): exit $r: $(cat "$TMP/bad.err")"
}
bad_file '- a\n- b\n' "1:1: expected failures must be a map of agent name"
bad_file 'x: nope\n' "1:4: 'x': expected a list"
bad_file 'x:\n  - a: 1\n    b: 2\n' "2:5: write one id per item"
bad_file 'x:\n  - a\n  - a\n' "3:5: 'a' is listed twice for 'x' (first at $TMP/bad.yaml:2:5)"
bad_file 'x:\n  - a: [1]\n' "2:8: the reason for 'a' must be a string"
"$ANANKE" comply --protocol a2a --agent "x=$clean" --expected-failures "$TMP/none.yaml" >/dev/null 2>"$TMP/bad.err"
[ $? -eq 2 ] && grep -q 'none.yaml' "$TMP/bad.err" && ok "missing file: exit 2" || bad "missing file: $(cat "$TMP/bad.err")"

# 5. Ctrl-C after the first test: the rest are skip (not fail, not pass)
"$ANANKE" comply -j 1 --agent mock="$MOCK acp" -r json:"$TMP/int.json" >/dev/null 2>"$TMP/int.err" &
cpid=$!
pids+=("$cpid")
for _ in $(seq 200); do grep -q '^comply: mock ' "$TMP/int.err" && break; sleep 0.05; done
kill -INT "$cpid"
wait "$cpid"
rc=$?
[ "$rc" -eq 130 ] && ok "interrupted: exit 130" || bad "interrupted: exit $rc"
jq -e '[.agents[0].tests[] | select(.status == "skip")] as $s
       | ($s | length) > 0 and ($s | all(.na_reason == "not run: interrupted (Ctrl-C or SIGTERM)"))
       and .summary.skipped == ($s | length)' "$TMP/int.json" >/dev/null &&
    ok "interrupted: $(jq '.summary.skipped' "$TMP/int.json") tests skip, with the reason" ||
    bad "interrupted: $(jq -c .summary "$TMP/int.json")"
grep -q 'SKIP$' "$TMP/int.err" && ok "interrupted: the last line counts SKIP" || bad "interrupted: $(tail -n 2 "$TMP/int.err")"

finish
