#!/usr/bin/env bash
# End-to-end checks of the compliance HTML report (docs/comply.md "The HTML
# report", "One page for all"):
#  1. `comply -r html:PATH` for ACP, MCP and A2A, two ananke-mock agents each
#     (one well-behaved, one with a fault), as docs/comply.md's example
#     examples/comply/all-protocols.sh runs them, and an ACP run whose faulty
#     agent's name is hostile markup: each page checked by
#     tests/comply/html_check.py against
#     the JSON report of the same run (matrix cells and their links, the
#     requirement rows, the MUST coverage, each test's statuses, the CSP and
#     its script hash, nothing loaded, the hostile name shown as text);
#  2. `comply --merge A.json B.json C.json D.json -r html:PATH`: one page for
#     all four, with the protocol × agent summary, checked the same way; the
#     exit code says a required test failed;
#  3. the checker itself fails on a page that does not match its JSON;
#  4. a results file is untrusted: hostile strings and links in it are shown
#     as text, never as markup or links; malformed JSON is an error at
#     FILE:LINE:COL, a field of the wrong type names its path, a run report or
#     a missing file is refused (exit 2), as is --merge with a reporter that
#     cannot join several results.
# Prints "comply-html: N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build tests/comply/html.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
pids=()
trap 'stop_pids "${pids[@]}"; rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-html # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_jq
command -v python3 >/dev/null 2>&1 || broken "python3 is not installed (the page's parser)"
[ -x "$MOCK" ] || broken "$MOCK not built (make build)"
CHECK=("python3" "$HERE/html_check.py")
# (no '=': --agent NAME=COMMAND ends the name at the first one)
HOSTILE='evil<script>alert(1)</script></td><i>"'"'"'&amp;'

# page NAME: the page and the JSON of the run NAME agree
page() {
    local name=$1
    shift
    if out=$("${CHECK[@]}" "$TMP/$name.html" "$TMP/$name.json" "$@" 2>&1); then
        ok "$name: the page shows what the JSON says ($out)"
    else
        bad "$name: the page and the JSON differ"
        echo "$out" | head -n 20
    fi
}

# 1. one page per protocol: docs/comply.md's example (examples/comply/all-protocols.sh)
ANANKE=$ANANKE MOCK=$MOCK OUT=$TMP SCALE=0.3 bash examples/comply/all-protocols.sh 2>"$TMP/ex.err"
rc=$?
[ "$rc" -eq 0 ] && ok "the docs' example runs" || bad "the docs' example: exit $rc $(head -c 300 "$TMP/ex.err")"
for p in acp mcp a2a; do
    n=$(jq '[.agents[].tests[] | select(.status == "fail")] | length' "$TMP/$p.json")
    [ "$(jq '.agents | length' "$TMP/$p.json")" = 2 ] && [ "$n" -ge 1 ] &&
        ok "$p: two agents, $n failures (the fault)" || bad "$p: not two agents with failures"
    page "$p"
done
[ "$(jq -r '.agents[1].tests[] | select(.id == "required.prompt.cancel") | .status' "$TMP/acp.json")" = fail ] &&
    ok "acp: the fault is caught" || bad "acp: required.prompt.cancel did not fail"
nreq=$(jq '.agents[0].requirements | length' "$TMP/a2a.json")
notmet=$(jq '[.agents[1].requirements[] | select(.status == "not_met")] | length' "$TMP/a2a.json")
[ "$nreq" -ge 40 ] && [ "$notmet" -ge 1 ] && ok "a2a: $nreq requirements, $notmet not met by the fault" ||
    bad "a2a: $nreq requirements, $notmet not met"
rows=$(grep -c '<tr class="req" data-id=' "$TMP/a2a.html")
[ "$rows" = "$nreq" ] && ok "a2a: a row per requirement ($rows)" || bad "a2a: $rows rows for $nreq requirements"
m=$(jq -r '.agents[1].must_coverage | "\(.tested) of \(.musts) MUSTs tested, \(.met) met"' "$TMP/a2a.json")
grep -qF "$m" "$TMP/a2a.html" && ok "a2a: MUST coverage shown: $m" || bad "a2a: no '$m'"

# an agent whose name is markup
"$ANANKE" comply --timeout-scale 0.3 -t required.initialize -t required.prompt.cancel \
    --agent good="$MOCK acp" --agent "$HOSTILE=$MOCK acp --fault ignore-cancel" \
    -r json:"$TMP/named.json" -r html:"$TMP/named.html" >/dev/null 2>"$TMP/named.err"
rc=$?
[ "$rc" -eq 1 ] && ok "named: exit 1 (the fault fails a required test)" || bad "named: exit $rc (want 1)"
page named --hostile "$HOSTILE"
grep -qF 'evil&lt;script&gt;alert(1)&lt;/script&gt;&lt;/td&gt;&lt;i&gt;&quot;&#39;&amp;amp;' "$TMP/named.html" &&
    ok "named: the hostile name escaped" || bad "named: the hostile name is not escaped as expected"

# 2. one page for all
"$ANANKE" comply --merge "$TMP/acp.json" "$TMP/mcp.json" "$TMP/a2a.json" "$TMP/named.json" \
    -r html:"$TMP/all.html" >"$TMP/all.out" 2>"$TMP/all.err"
rc=$?
[ "$rc" -eq 1 ] && ok "merge: exit 1 (a required test failed in one of them)" || bad "merge: exit $rc (want 1)"
if out=$("${CHECK[@]}" "$TMP/all.html" "$TMP/acp.json" "$TMP/mcp.json" "$TMP/a2a.json" \
    "$TMP/named.json" --hostile "$HOSTILE" 2>&1); then
    ok "merge: one page shows the four results ($out)"
else
    bad "merge: the page and the JSON differ"
    echo "$out" | head -n 20
fi
[ "$(grep -c '<section class="proto"' "$TMP/all.html")" = 4 ] && ok "merge: a section per result" ||
    bad "merge: not 4 sections"
# a result read back is the result: its page is the run's, byte for byte
for p in acp a2a; do
    "$ANANKE" comply --merge "$TMP/$p.json" -r html:"$TMP/$p-again.html" >/dev/null 2>&1
    cmp -s "$TMP/$p.html" "$TMP/$p-again.html" && ok "merge: $p read back makes the same page" ||
        bad "merge: $p read back makes another page"
done
jq '.agents[1].tests[0].status = "pass"' "$TMP/a2a.json" >"$TMP/a2a-pass.json"
"$ANANKE" comply --merge "$TMP/a2a-pass.json" -r html:"$TMP/dir" >/dev/null 2>&1
[ -s "$TMP/dir/index.html" ] && ok "merge: html:DIR writes DIR/index.html" || bad "merge: no DIR/index.html"

# 3. the checker can fail
jq '(.agents[0].tests[] | select(.status == "pass") | .status) |= "fail"' "$TMP/a2a.json" >"$TMP/lie.json"
"${CHECK[@]}" "$TMP/a2a.html" "$TMP/lie.json" >/dev/null 2>&1 &&
    bad "the checker accepts a page that does not show its JSON" ||
    ok "the checker refuses a page that does not show its JSON"

# 4. results files are untrusted
jq --arg h "$HOSTILE" '.protocol = $h | .spec = $h
    | .agents[0].tests[0].title = $h | .agents[0].tests[0].area = $h
    | .agents[0].tests[0].docs = ["javascript:alert(3)", "https://example.com/\"><script>x</script>"]
    | .agents[0].tests[0].status = "fail"
    | .agents[0].tests[0].unmet = [{"kind": $h, "step": 0, "message": $h, "expected": {"x": $h},
        "closest": $h, "diff": [$h]}]
    | .agents[].requirements = {($h): {"level": $h, "status": "not_met", "title": $h,
        "section": "javascript:alert(4)"}}
    | .agents[].must_coverage = {"musts": 0, "tested": 0, "met": 0}' "$TMP/acp.json" >"$TMP/hostile.json"
"$ANANKE" comply --merge "$TMP/hostile.json" -r html:"$TMP/hostile.html" >/dev/null 2>&1
if out=$("${CHECK[@]}" "$TMP/hostile.html" "$TMP/hostile.json" --hostile "$HOSTILE" 2>&1); then
    ok "hostile results file: every string shown as text, no link but http(s) ($out)"
else
    bad "hostile results file"
    echo "$out" | head -n 20
fi
grep -q 'href="javascript' "$TMP/hostile.html" && bad "hostile: a javascript: link" ||
    ok "hostile: no javascript: link"

expect_error() { # NAME WANT-IN-STDERR FILE...
    local name=$1 want=$2
    shift 2
    "$ANANKE" comply --merge "$@" -r html:"$TMP/x.html" >/dev/null 2>"$TMP/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$TMP/err"; then
        ok "$name: exit 2, $want"
    else
        bad "$name: exit $rc, stderr: $(head -c 300 "$TMP/err") (want exit 2 and: $want)"
    fi
}
printf '{"tool": "ananke comply",\n  "agents": [{"name": "x",]}\n' >"$TMP/cut.json"
expect_error "malformed JSON" "$TMP/cut.json:2:27: not a JSON report" "$TMP/cut.json"
jq '.agents[1].tests[3].status = 42' "$TMP/acp.json" >"$TMP/type.json"
expect_error "a wrong type" "agents[1].tests[3].status: expected pass, fail, na, skip, xfail or stale" \
    "$TMP/type.json"
jq '.agents[0].requirements = {"R": {"level": "MUST", "status": "met", "title": 7}}' \
    "$TMP/acp.json" >"$TMP/type2.json"
expect_error "a wrong type in the requirements" "agents[0].requirements[0].title: expected a string, got number" \
    "$TMP/type2.json"
echo '{"ananke": "1", "tests": []}' >"$TMP/run.json"
expect_error "a run report" "not a comply JSON report" "$TMP/run.json"
expect_error "a missing file" "cannot read" "$TMP/none.json"
"$ANANKE" comply --merge "$TMP/acp.json" "$TMP/mcp.json" -r junit:"$TMP/x.xml" >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -qF "reporter 'junit' writes one result" "$TMP/err" &&
    ok "merge with junit: exit 2" || bad "merge with junit: exit $rc $(cat "$TMP/err")"
"$ANANKE" comply --merge >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && ok "merge with no file: exit 2" || bad "merge with no file"

finish
