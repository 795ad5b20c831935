#!/usr/bin/env bash
# End-to-end checks of `ananke comply --protocol mcp` with the suite in
# compliance/mcp:
#  1. against @modelcontextprotocol/server-everything over stdio (npm,
#     installed under tests/mcp by scripts/setup.sh): every required test
#     PASS (those of Streamable HTTP, *.http.*: NA), exit 0; its report kept in docs/comply-mcp-everything.md is
#     current (paths normalised; ANANKE_UPDATE_DOCS=1 rewrites it);
#  2. the server's requests answered MCP-style (ping {}, roots/list
#     {roots: []}, anything else -32601), through ananke-mock mcp's
#     `ask` tool; no ACP session/new is ever sent;
#  3. a server that echoes a version nobody speaks fails the version tests
#     (exit 1);
#  4. an ACP test (newSession) under --protocol mcp is exit 2;
#  5. server-everything over Streamable HTTP (`node index.js streamableHttp`,
#     --agent NAME=http://.../mcp): every test earns the status it earns
#     over stdio, and the tests of HTTP itself theirs (its two deviations
#     from the session rules and its taking a foreign Origin listed in
#     --expected-failures, XFAIL); a reply with the wrong content is said as such on the
#     progress line over both transports; an endpoint nobody answers is
#     a FAIL naming it;
#  6. ananke-mock mcp (stdio and HTTP), which serves the official kit's
#     fixtures: every test PASSes, every requirement of the newest set is
#     met; then each fault of the mock is caught by the test citing the
#     requirement it breaks (tests/comply/mcp-faults.sh);
#  7. docs/comply.md's MCP requirement table is the suite's (generated here;
#     ANANKE_UPDATE_DOCS=1 rewrites it);
#  8. MCP 2026-07-28 (--spec 2026-07-28, tests/comply/mcp-modern.sh): the
#     mock over HTTP passes the required.modern.* tests, the others NA;
#     server-everything (2025-11-25 only) and stdio NA; its table in
#     docs/comply.md. The 2026-07-28 faults are in mcp-faults.sh.
# Prints "comply-mcp: N passed, N failed"; exits non-zero on any failure.
#
#   ANANKE_BUILD=build-cmcp tests/comply/mcp.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-mcp # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_node "the MCP servers"
need_jq
EVERYTHING=$tests_root/tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
MOCK=$tests_build/ananke-mock
[ -f "$EVERYTHING" ] || broken "server-everything is missing (run scripts/setup.sh: npm ci in tests/mcp)"

# status TEST-ID FILE.json → pass/fail/na/skip/xfail/stale
status() {
    jq -r --arg id "$1" '.agents[0].tests[] | select(.id == $id) | .status' "$2"
}

ALL=$("$ANANKE" comply --protocol mcp --list-tests | cut -d' ' -f1)
n=$(wc -w <<<"$ALL")
[ "$n" -ge 10 ] && ok "--list-tests: $n tests" || bad "--list-tests: $n"

# 1. server-everything: the required tests pass
"$ANANKE" comply --protocol mcp -j 4 --agent everything="node $EVERYTHING stdio" \
    -r json:"$TMP/ev.json" >"$TMP/ev.md" 2>"$TMP/ev.err"
rc=$?
[ "$rc" -eq 0 ] && ok "everything: exit 0" || { bad "everything: exit $rc (want 0)"; tail -n 20 "$TMP/ev.err"; }
for id in $ALL; do
    st=$(status "$id" "$TMP/ev.json")
    case $id in
    *.http.* | *.modern.*) [ "$st" = na ] && ok "everything: $id NA over stdio" || bad "everything: $id $st (want NA)" ;;
    required.*) [ "$st" = pass ] && ok "everything: $id PASS" || bad "everything: $id $st (want PASS)" ;;
    *) [ -n "$st" ] && ok "everything: $id $st (optional)" || bad "everything: $id has no result" ;;
    esac
done
# the SDK answers a request that breaks the schema with -32603: the optional
# test says so (if the SDK changes, the kept report shows it)
grep -q 'error.code: expected -32602, got -32603' "$TMP/ev.md" &&
    ok "everything: malformed request answered -32603 (optional FAIL)" || bad "everything: -32603 note"
[ "$(jq -r .protocol "$TMP/ev.json")" = mcp ] && ok "json protocol mcp" || bad "json protocol"
[ "$(jq -r '.agents[0].initialize.serverInfo.name' "$TMP/ev.json")" = mcp-servers/everything ] &&
    ok "the probe keeps the initialize result" || bad "probe: serverInfo"
# the kept report: the server's absolute path changes from checkout to checkout
sed -e "s#$tests_root/#./#g" "$TMP/ev.md" >"$TMP/normalised.md"
doc=docs/comply-mcp-everything.md
if [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
    cp "$TMP/normalised.md" "$doc"
    ok "$doc rewritten (ANANKE_UPDATE_DOCS=1)"
elif cmp -s "$TMP/normalised.md" "$doc"; then
    ok "$doc is current"
else
    bad "$doc is stale: regenerate with ANANKE_UPDATE_DOCS=1 tests/comply/mcp.sh"
    diff "$doc" "$TMP/normalised.md" | head -n 20
fi

# 2. the client side: ananke-mock mcp's `ask` tool asks ping, roots/list and
#    sampling/createMessage and reports what came back
cat >"$TMP/ask.jsont" <<'JSONT'
{
  "title": "server requests answered MCP-style", "description": "d", "severity": "required", "docs": ["https://modelcontextprotocol.io/specification/2025-11-25/client/roots"],
  "steps": [
    { "send": { "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "ask", "arguments": {} } } },
    { "expect": { "timeoutMs": 5000, "messages": [
      { "clientRequest": { "method": "^ping$" } },
      { "clientRequest": { "method": "^roots/list$" } },
      { "response": { "id": 1, "result": { "content": [ { "text": "^ping: \\{\\}; roots: \\{\"roots\":\\[\\]\\}; sampling: error -32601$" } ] } } }
    ] } },
    { "send": { "jsonrpc": "2.0", "id": 2, "method": "ping" } },
    { "expect": { "messages": [ { "response": { "id": 2, "result": {} } } ] } }
  ]
}
JSONT
"$ANANKE" comply --protocol mcp -v --agent faulty="$MOCK mcp --requests $TMP/faulty.log" "$TMP/ask.jsont" \
    -r json:"$TMP/ask.json" >/dev/null 2>"$TMP/ask.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(status ask "$TMP/ask.json")" = pass ] &&
    ok "faulty: ping {}, roots/list {roots: []}, sampling -32601" ||
    { bad "faulty: server requests (exit $rc)"; grep -v '^  \[' "$TMP/ask.err" | tail -n 20; }
grep -q '"method":"notifications/initialized"' "$TMP/faulty.log" &&
    ok "faulty: the runner sent notifications/initialized" || bad "faulty: no notifications/initialized"
grep -q '"method":"session/new"' "$TMP/faulty.log" &&
    bad "faulty: the runner sent ACP's session/new" || ok "faulty: no ACP session/new"
grep -q '"protocolVersion":"2025-11-25","capabilities":{}' "$TMP/faulty.log" &&
    ok "faulty: MCP initialize (2025-11-25, capabilities {})" || bad "faulty: initialize params"

# 3. a server that answers a version nobody speaks: the version tests fail
"$ANANKE" comply --protocol mcp --spec 2025-11-25 --agent faulty="$MOCK mcp --version 1999-01-01" \
    -t required.initialize -t required.initialize.unknown-version -t required.ping \
    -r json:"$TMP/ver.json" >"$TMP/ver.md" 2>/dev/null
rc=$?
[ "$rc" -eq 1 ] && ok "wrong version: exit 1" || bad "wrong version: exit $rc (want 1)"
[ "$(status required.initialize "$TMP/ver.json")" = fail ] &&
    [ "$(status required.initialize.unknown-version "$TMP/ver.json")" = fail ] &&
    [ "$(status required.ping "$TMP/ver.json")" = pass ] &&
    ok "wrong version: the two version tests FAIL, ping PASS" || bad "wrong version: statuses"
grep -q 'result.protocolVersion: expected /^2025-11-25$/, got "1999-01-01"' "$TMP/ver.md" &&
    ok "wrong version: the diff names it" || bad "wrong version: diff line"

# 4. an ACP test under --protocol mcp
"$ANANKE" comply --protocol mcp --agent x="true" compliance/acp/required.prompt.cancel.jsont \
    >/dev/null 2>"$TMP/acp.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'newSession is an ACP step, but --protocol is mcp' "$TMP/acp.err" &&
    ok "ACP test under --protocol mcp: exit 2" || bad "ACP test under mcp: exit $rc"
"$ANANKE" comply --protocol xyz --agent x=true >/dev/null 2>&1
[ $? -eq 2 ] && ok "--protocol xyz: exit 2" || bad "--protocol xyz"

# 5. Streamable HTTP: the same server on a free port
# (port 0, loopback only: tests/mcp/everything_http.sh)
# shellcheck source=../mcp/everything_http.sh
. "$tests_root/tests/mcp/everything_http.sh"
mkdir -p "$TMP/http"
everything_http_start "$EVERYTHING" "$TMP/http" ||
    broken "server-everything (streamableHttp) did not start: $(head -c 300 "$TMP/http/log")"
http_pid=$srv_pid
trap 'stop_pids "$http_pid" "${mock_pid:-}" "${fpid:-}"; rm -rf "$TMP"' EXIT
port=$(head -n1 "$TMP/http/port")
cat >"$TMP/evh-xfail.yaml" <<'YAML'
everything:
  - required.http.session.delete: an ended session's id is answered 400 (No valid session ID provided), not 404
  - optional.http.session.unknown: an unknown session id is answered 400, not 404
  - required.http.origin.foreign: a request with Origin http://evil.example is taken (200), not refused with 403 (no DNS rebinding protection)
YAML
"$ANANKE" comply --protocol mcp -j 4 --agent everything="http://127.0.0.1:$port/mcp" \
    --expected-failures "$TMP/evh-xfail.yaml" -r json:"$TMP/evh.json" >"$TMP/evh.md" 2>"$TMP/evh.err"
rc=$?
[ "$rc" -eq 0 ] && ok "everything over HTTP: exit 0" || { bad "everything over HTTP: exit $rc"; tail -n 20 "$TMP/evh.err"; }
# the tests of HTTP itself (NA over stdio): what server-everything earns
for pair in required.http.session.id-visible-ascii=pass optional.http.session.missing=pass \
    required.http.session.delete=xfail optional.http.session.unknown=xfail \
    required.http.protocol-version-header=pass required.http.get-stream=pass \
    required.http.origin.foreign=xfail required.http.notification-accepted=pass; do
    st=$(status "${pair%=*}" "$TMP/evh.json")
    [ "$st" = "${pair#*=}" ] && ok "everything over HTTP: ${pair%=*} $st" ||
        bad "everything over HTTP: ${pair%=*} $st (want ${pair#*=})"
done
jq -e '.agents[0].tests[] | select(.id == "required.http.session.delete") | .unmet[0].message
    | startswith("http.status: expected /^404$/, got 400")' "$TMP/evh.json" >/dev/null &&
    ok "everything over HTTP: the ended session's 400 said as such" ||
    bad "everything over HTTP: $(jq -c '.agents[0].tests[] | select(.id == "required.http.session.delete") | .unmet' "$TMP/evh.json")"
st='[.agents[0].tests[] | select(.id | contains(".http.") | not) | "\(.id) \(.status)"] | sort | .[]'
if diff <(jq -r "$st" "$TMP/ev.json") <(jq -r "$st" "$TMP/evh.json") >"$TMP/evh.diff"; then
    ok "everything over HTTP: every test's status is the stdio one ($(jq '.agents[0].tests | length' "$TMP/evh.json") tests)"
else
    bad "everything over HTTP: statuses differ from stdio (< stdio, > HTTP)"
    sed 's/^/    /' "$TMP/evh.diff"
fi
[ "$(jq -r '.agents[0].initialize.serverInfo.name' "$TMP/evh.json")" = mcp-servers/everything ] &&
    [ "$(jq -r '.agents[0].command' "$TMP/evh.json")" = "http://127.0.0.1:$port/mcp" ] &&
    ok "everything over HTTP: the probe's initialize, the URL as the command" || bad "everything over HTTP: probe"
# the SDK answers the malformed request (-32603): a reply that came, said as such
for f in ev evh; do
    grep -q '^comply: everything optional.error.malformed-request FAIL (.*): error.code: expected -32602, got -32603' "$TMP/$f.err" &&
        ok "$f: the progress line says error.code: expected -32602, got -32603" ||
        bad "$f: progress line: $(grep malformed-request "$TMP/$f.err")"
done
"$ANANKE" comply --protocol mcp --spec 2025-11-25 -t required.ping --agent gone="http://127.0.0.1:1/mcp" \
    -r json:"$TMP/gone.json" >/dev/null 2>"$TMP/gone.err"
rc=$?
[ "$rc" -eq 1 ] && jq -e '.agents[0].tests[0].stderr_tail | contains("http://127.0.0.1:1/mcp: the POST of request 0 got no answer")' \
    "$TMP/gone.json" >/dev/null && ok "an endpoint nobody answers: FAIL, its stderr names it" ||
    bad "unreachable endpoint: exit $rc $(jq -c '.agents[0].tests[0] | [.unmet[0].message, .stderr_tail]' "$TMP/gone.json")"


# 6. ananke-mock mcp: the whole suite passes over both transports, then the faults
every_pass() { # NAME FILE.json [stdio: the tests of HTTP NA, their requirements not tested]
    local notpass http=${3:-}
    notpass=$(jq -r --arg s "$http" '[.agents[0].tests[]
        | select(.status != (if ($s != "" and (.id | contains(".http."))) or (.id | contains(".modern."))
            then "na" else "pass" end))
        | "\(.id) \(.status)"] | join("; ")' "$2")
    [ -z "$notpass" ] && ok "$1: every test PASS ($(jq '.agents[0].tests | length' "$2"))${http:+, those of HTTP NA}" ||
        bad "$1: $notpass"
    notmet=$(jq -r --arg s "$http" '[.agents[0].requirements | to_entries[]
        | select(.value.status != (if $s != "" and (.key | startswith("MCP-HTTP-")) then "not_tested" else "met" end))
        | .key] | join(" ")' "$2")
    [ -z "$notmet" ] && [ "$(jq -r .spec "$2")" = 2025-11-25 ] &&
        ok "$1: every requirement of 2025-11-25 met" || bad "$1: not met: $notmet (spec $(jq -r .spec "$2"))"
}
"$ANANKE" comply --protocol mcp --spec 2025-11-25 -j 4 --agent mock="$MOCK mcp" -r json:"$TMP/mock.json" >/dev/null 2>&1
every_pass "mock (stdio)" "$TMP/mock.json" stdio
spawn_server "$TMP/mock.port" 0.1 "$TMP/mock.out" "$TMP/mock.srv" "$MOCK" mcp --http --port-file "$TMP/mock.port"
mock_pid=$spawned_pid
"$ANANKE" comply --protocol mcp --spec 2025-11-25 -j 4 --agent mock="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/mock.port")/mcp" \
    -r json:"$TMP/mockh.json" >/dev/null 2>&1
every_pass "mock (HTTP)" "$TMP/mockh.json"
# -v shows an mcpHttp test's own requests and answers, the session id redacted on request
"$ANANKE" comply --protocol mcp --spec 2025-11-25 -v -t required.http.session.delete --redact 'mock-session-[0-9]+' \
    --agent mock="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/mock.port")/mcp" >/dev/null 2>"$TMP/mockv.err"
grep -q '^  \[OUT\] DELETE http://127.0.0.1:[0-9]*/mcp {"MCP-Protocol-Version":"2025-11-25","Mcp-Session-Id":"\[redacted\]"}' \
    "$TMP/mockv.err" && grep -q '^  \[IN \] .*"http":{"status":404' "$TMP/mockv.err" &&
    ! grep -q 'mock-session-[0-9]' "$TMP/mockv.err" &&
    ok "mock (HTTP): -v shows the DELETE and the 404, the session id redacted" ||
    bad "mock (HTTP): -v: $(grep -c '\[OUT\]' "$TMP/mockv.err") frames out"
stop_pids "$mock_pid"
# shellcheck source=mcp-faults.sh
. "$HERE/mcp-faults.sh"

# 7. docs/comply.md's MCP requirement table (generated from the suite)
SET=compliance/mcp/requirements/2025-11-25.json
for f in compliance/mcp/*.jsont; do
    jq --arg f "$(basename "$f" .jsont)" '{file: $f, requirements, revisions}' "$f"
done >"$TMP/tests.jsonl"
{
    echo '| ID | level | requirement | tests |'
    echo '|---|---|---|---|'
    jq -s -r --slurpfile tests "$TMP/tests.jsonl" '.[0].requirements[] | . as $r
        | [$tests[] | select((.requirements | index($r.id)) and ((.revisions // ["2025-11-25"]) | index("2025-11-25"))) | "`\(.file)`"] as $by
        | "| [\($r.id)](\($r.section)) | \($r.level) | \($r.title) | \(if ($by | length) > 0 then ($by | join(", ")) else "not tested" end) |"' "$SET"
} >"$TMP/table.md"
doc=docs/comply.md
awk -v t="$TMP/table.md" '
    /^<!-- \/mcp-requirements -->$/ { while ((getline l < t) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- mcp-requirements -->$/ { skip = 1 }' "$doc" >"$TMP/comply.md"
if ! grep -q '^<!-- mcp-requirements -->$' "$doc"; then
    bad "$doc: no <!-- mcp-requirements --> block"
elif [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
    cp "$TMP/comply.md" "$doc"
    ok "$doc: the MCP requirement table rewritten (ANANKE_UPDATE_DOCS=1)"
elif cmp -s "$TMP/comply.md" "$doc"; then
    ok "$doc: the MCP requirement table is current"
else
    bad "$doc: the MCP requirement table is stale: ANANKE_UPDATE_DOCS=1 tests/comply/mcp.sh"
    diff "$doc" "$TMP/comply.md" | head -n 10
fi

# shellcheck source=mcp-modern.sh
. "$HERE/mcp-modern.sh"

finish
