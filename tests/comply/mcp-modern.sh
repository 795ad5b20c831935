# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/mcp.sh (uses its ANANKE, MOCK, TMP, port, ok, bad,
# spawn_server, stop_pids): MCP 2026-07-28, the stateless revision, judged
# with --spec 2026-07-28 (the default too: the newest set; without --spec
# each server is judged at the revision it speaks, as the two-agent run
# below checks):
#  - ananke-mock mcp over HTTP (it speaks 2026-07-28 to a request whose
#    _meta names it): every *.modern.* test PASSes, every other test is NA
#    (a test of 2025-06-18 and 2025-11-25), and the requirements they cite
#    are met;
#  - the mock's faults of what 2026-07-28 keeps of 2025-11-25 (tool
#    content, resources, prompts, completion, progress) are caught by the
#    *.modern.* test of that feature (mcp-modern-reuse.sh);
#  - the mock over stdio: the *.modern.* tests that run there (all but
#    those of HTTP headers, NA) PASS, their requirements met;
#  - server-everything over stdio and over HTTP (2025-11-25 only): the
#    modern tests NA, negotiated down, exit 0;
#  - docs/comply.md's 2026-07-28 requirement table is the suite's.

# modern_run NAME AGENT: the whole suite at 2026-07-28, its JSON in $TMP/NAME.json
modern_run() {
    "$ANANKE" comply --protocol mcp --spec 2026-07-28 -j 4 --agent "$1=$2" \
        -r json:"$TMP/$1.json" >/dev/null 2>"$TMP/$1.err"
}
MODERN_REQS="MCP-CACHE-001 MCP-CAP-001 MCP-COMP-001 MCP-DISC-001 MCP-DISC-002 MCP-DISC-003 MCP-DISC-004 MCP-HDR-001 MCP-HDR-002 MCP-HTTP-007 MCP-HTTP-010 MCP-LOG-003 MCP-META-001 MCP-META-002 MCP-MRTR-001 MCP-MRTR-002 MCP-MRTR-003 MCP-MRTR-004 MCP-MRTR-005 MCP-MRTR-006 MCP-MRTR-007 MCP-MRTR-008 MCP-MRTR-009 MCP-MRTR-010 MCP-PROG-001 MCP-PROMPT-001 MCP-PROMPT-002 MCP-PROMPT-003 MCP-PROMPT-004 MCP-PROMPT-005 MCP-PROMPT-006 MCP-RES-001 MCP-RES-002 MCP-RES-003 MCP-RES-004 MCP-RES-007 MCP-RM-001 MCP-RPC-001 MCP-RPC-002 MCP-RPC-003 MCP-RT-001 MCP-SUB-001 MCP-SUB-002 MCP-SUB-003 MCP-SUB-004 MCP-SUB-005 MCP-SUB-006 MCP-TOOLS-001 MCP-TOOLS-002 MCP-TOOLS-003 MCP-TOOLS-004 MCP-TOOLS-005 MCP-TOOLS-006 MCP-TOOLS-007 MCP-VER-001"

spawn_server "$TMP/modern.port" 0.1 "$TMP/modern.out" "$TMP/modern.srv" "$MOCK" mcp --http --port-file "$TMP/modern.port"
modern_pid=$spawned_pid
modern_run modern "http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/modern.port")/mcp"
rc=$?
stop_pids "$modern_pid"
odd=$(jq -r '[.agents[0].tests[] | select(.status != (if (.id | contains(".modern.")) then "pass" else "na" end))
    | "\(.id) \(.status)"] | join("; ")' "$TMP/modern.json")
n=$(jq '[.agents[0].tests[] | select(.id | contains(".modern."))] | length' "$TMP/modern.json")
[ "$rc" -eq 0 ] && [ -z "$odd" ] && [ "$n" -ge 32 ] && [ "$(jq -r .spec "$TMP/modern.json")" = 2026-07-28 ] &&
    ok "2026-07-28: the mock (HTTP) passes the $n *.modern.* tests, the others NA" ||
    bad "2026-07-28: mock (HTTP): exit $rc, $n modern tests; $odd"
met=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status == "met") | .key] | sort | join(" ")' "$TMP/modern.json")
[ "$met" = "$MODERN_REQS" ] && ok "2026-07-28: mock: $met met" || bad "2026-07-28: mock: met '$met' (want '$MODERN_REQS')"
jq -e '.agents[0].tests[] | select(.id == "required.ping") | .na_reason
    == "a test of MCP 2025-06-18 and 2025-11-25 (this run judges revision 2026-07-28)"' "$TMP/modern.json" >/dev/null &&
    ok "2026-07-28: a 2025-11-25 test is NA, its revisions said" || bad "2026-07-28: required.ping's NA reason"

# a listened stream with -v: the listen request, the one sent during it, and
# the outcome holding the stream's messages and `during`'s answer
spawn_server "$TMP/listen.port" 0.1 "$TMP/listen.out" "$TMP/listen.srv" "$MOCK" mcp --http --port-file "$TMP/listen.port"
modern_pid=$spawned_pid
"$ANANKE" comply --protocol mcp -v -t required.modern.subscriptions.filter \
    --agent "l=http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/listen.port")/mcp" >"$TMP/listen.md" 2>"$TMP/listen.err"
rc=$?
stop_pids "$modern_pid"
[ "$rc" -eq 0 ] && grep -q '\[OUT\] POST .*"method":"subscriptions/listen"' "$TMP/listen.err" &&
    grep -q '\[OUT\] (during) POST .*"name":"test_trigger_tool_change"' "$TMP/listen.err" &&
    grep -q '\[IN \] .*"first":{.*"notifications/subscriptions/acknowledged".*"during":{' "$TMP/listen.err" &&
    ok "listenMs with -v: the listen request, the one sent during it, the stream's outcome with during's" ||
    bad "listenMs -v: exit $rc; $(grep -c OUT "$TMP/listen.err") requests shown"

# origin-ignored (a fault of mcp-faults.sh's HTTP_FAULTS) fails the Origin test of this revision too
spawn_server "$TMP/modern-origin.port" 0.1 "$TMP/modern-origin.out" "$TMP/modern-origin.srv" \
    "$MOCK" mcp --http --fault origin-ignored --port-file "$TMP/modern-origin.port"
modern_pid=$spawned_pid
"$ANANKE" comply --protocol mcp --spec 2026-07-28 -t required.modern.origin \
    --agent "origin=http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/modern-origin.port")/mcp" \
    -r json:"$TMP/modern-origin.json" >/dev/null 2>&1
stop_pids "$modern_pid"
[ "$(jq -r '.agents[0].tests[0].status' "$TMP/modern-origin.json")" = fail ] &&
    [ "$(jq -r '.agents[0].requirements["MCP-HTTP-007"].status' "$TMP/modern-origin.json")" = not_met ] &&
    ok "2026-07-28: fault origin-ignored: required.modern.origin FAIL, MCP-HTTP-007 not_met" ||
    bad "2026-07-28: fault origin-ignored: $(jq -c '.agents[0].tests[0] | [.status, .unmet[0].message]' "$TMP/modern-origin.json")"

# over stdio: the same tests on the pipe (no initialize, _meta on every
# request) but those of HTTP headers (runs_on_stdio, mcp-fault-lib.sh)
modern_run modern-stdio "$MOCK mcp"
rc=$?
want_pass=$(for t in $(jq -r '.agents[0].tests[] | select(.id | contains(".modern.")) | .id' "$TMP/modern-stdio.json"); do
    runs_on_stdio "$t" && echo "$t"; done | sort | tr '\n' ' ')
got_pass=$(jq -r '[.agents[0].tests[] | select(.status == "pass") | .id] | sort | join(" ")' "$TMP/modern-stdio.json")
odd=$(jq -r '[.agents[0].tests[] | select(.status != "pass" and .status != "na") | "\(.id) \(.status)"] | join("; ")' "$TMP/modern-stdio.json")
np=$(echo "$got_pass" | wc -w)
[ "$rc" -eq 0 ] && [ -z "$odd" ] && [ "$got_pass " = "$want_pass" ] && [ "$np" -ge 30 ] &&
    ok "2026-07-28: the mock over stdio passes the $np *.modern.* tests that run there, the others NA" ||
    bad "2026-07-28: mock (stdio): exit $rc; passed '$got_pass' (want '$want_pass'); $odd"
STDIO_REQS=$(for r in $MODERN_REQS; do case $r in MCP-HDR-001 | MCP-HDR-002 | MCP-HTTP-007 | MCP-HTTP-010) ;; *) echo "$r" ;; esac; done | tr '\n' ' ')
met=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status == "met") | .key] | sort | join(" ")' "$TMP/modern-stdio.json")
[ "$met " = "$STDIO_REQS" ] && ok "2026-07-28: mock (stdio): $met met" || bad "2026-07-28: mock (stdio): met '$met' (want '$STDIO_REQS')"
jq -e '.agents[0].tests[] | select(.id == "required.modern.header-mismatch") | .na_reason | contains("over stdio there are none")' \
    "$TMP/modern-stdio.json" >/dev/null && ok "2026-07-28: stdio: the header test NA, the reason said" ||
    bad "2026-07-28: stdio: required.modern.header-mismatch's NA reason"

# server-everything over stdio answers server/discover -32601: negotiated down there too
modern_run modern-everything-stdio "node $EVERYTHING stdio"
rc=$?
odd=$(jq -r '[.agents[0].tests[] | select(.id | contains(".modern.")) | select(.status != "na"
    or ((.na_reason | contains("negotiated down")) or (.na_reason | contains("over stdio there are none")) | not))
    | "\(.id) \(.status)"] | join("; ")' "$TMP/modern-everything-stdio.json")
[ "$rc" -eq 0 ] && [ -z "$odd" ] && ok "2026-07-28: server-everything over stdio: the modern tests NA, negotiated down (the header ones: no HTTP)" ||
    bad "2026-07-28: server-everything (stdio): exit $rc; $odd"

modern_run modern-everything "http://127.0.0.1:$port/mcp"
rc=$?
odd=$(jq -r '[.agents[0].tests[] | select(.id | contains(".modern."))
    | select(.status != "na" or (.na_reason | contains("negotiated down") | not)) | .id] | join(" ")' "$TMP/modern-everything.json")
[ "$rc" -eq 0 ] && [ -z "$odd" ] && ok "2026-07-28: server-everything (2025-11-25 only): the modern tests NA, negotiated down" ||
    bad "2026-07-28: server-everything: exit $rc; $odd"

# Without --spec each server is judged at the revision it speaks, in one
# run and one report: server-everything (server/discover refused) at
# 2025-11-25, initialize's; the mock (server/discover answered) at
# 2026-07-28. --spec 2025-11-25 then judges both at 2025-11-25.
T2=(-t required.tools.list -t required.ping -t required.modern.tools.list -t required.modern.discover)
"$ANANKE" comply --protocol mcp -j 4 "${T2[@]}" --agent everything="node $EVERYTHING stdio" \
    --agent mock="$MOCK mcp" -r json:"$TMP/nego.json" -r md:"$TMP/nego.md" -r junit:"$TMP/nego.xml" \
    -r html:"$TMP/nego.html" >/dev/null 2>"$TMP/nego.err"
rc=$?
st() { jq -r --argjson a "$1" --arg id "$2" '.agents[$a].tests[] | select(.id == $id) | .status' "$TMP/$3.json"; }
[ "$rc" -eq 0 ] && [ "$(jq -r '[.spec, .agents[0].spec, .agents[1].spec] | join(" ")' "$TMP/nego.json")" = "2026-07-28 2025-11-25 2026-07-28" ] &&
    ok "no --spec: the run's revision 2026-07-28; server-everything judged at 2025-11-25, the mock at 2026-07-28" ||
    bad "no --spec: exit $rc, specs $(jq -c '[.spec, .agents[].spec]' "$TMP/nego.json")"
[ "$(st 0 required.ping nego) $(st 0 required.tools.list nego) $(st 0 required.modern.tools.list nego)" = "pass pass na" ] &&
    [ "$(st 1 required.ping nego) $(st 1 required.modern.tools.list nego) $(st 1 required.modern.discover nego)" = "na pass pass" ] &&
    ok "no --spec: each server's tests of its revision ran, the others NA" ||
    bad "no --spec: statuses $(jq -c '[.agents[] | [.tests[] | "\(.id) \(.status)"]]' "$TMP/nego.json")"
[ "$(jq -r '[.agents[0].requirements["MCP-PING-001"].status, .agents[0].requirements["MCP-DISC-001"].status // "absent",
    .agents[1].requirements["MCP-DISC-001"].status, .agents[1].requirements["MCP-PING-001"].status // "absent"] | join(" ")' "$TMP/nego.json")" = "met absent met absent" ] &&
    ok "no --spec: each server gets its revision's requirement set (MCP-PING-001 of 2025-11-25, MCP-DISC-001 of 2026-07-28)" ||
    bad "no --spec: requirement sets $(jq -c '[.agents[] | .requirements | keys | length]' "$TMP/nego.json")"
grep -q '^## Requirements (spec revision 2025-11-25)$' "$TMP/nego.md" && grep -q '^## Requirements (spec revision 2026-07-28)$' "$TMP/nego.md" &&
    grep -q '^- Judged at spec revision `2025-11-25`: the one it negotiated' "$TMP/nego.md" &&
    grep -q '<property name="spec" value="2025-11-25"/>' "$TMP/nego.xml" && grep -q '<property name="spec" value="2026-07-28"/>' "$TMP/nego.xml" &&
    [ "$(grep -c '<h3>Requirements (spec revision 20' "$TMP/nego.html")" -eq 2 ] &&
    grep -q '^comply: everything: judged at revision 2025-11-25, the one it speaks (no --spec)$' "$TMP/nego.err" &&
    ok "no --spec: Markdown, JUnit, HTML and the log say each server's revision, a requirement table per revision" ||
    bad "no --spec: the reports: $(grep -c 'spec revision' "$TMP/nego.md") Markdown lines"
"$ANANKE" comply --protocol mcp --spec 2025-11-25 -j 4 "${T2[@]}" --agent everything="node $EVERYTHING stdio" \
    --agent mock="$MOCK mcp" -r json:"$TMP/nego-old.json" -r md:"$TMP/nego-old.md" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(jq -r '[.spec, .agents[].spec] | join(" ")' "$TMP/nego-old.json")" = "2025-11-25 2025-11-25 2025-11-25" ] &&
    [ "$(st 1 required.ping nego-old) $(st 1 required.modern.tools.list nego-old)" = "pass na" ] &&
    [ "$(grep -c '^## Requirements (spec revision' "$TMP/nego-old.md")" -eq 1 ] &&
    ok "--spec 2025-11-25: both servers judged at it, one requirement table" ||
    bad "--spec 2025-11-25: exit $rc, $(jq -c '[.spec, .agents[].spec]' "$TMP/nego-old.json")"
# a server of 2026-07-28 alone (initialize refused): its server/discover result is the probe
"$ANANKE" comply --protocol mcp -j 4 --agent only="$MOCK mcp --modern-only" -r json:"$TMP/nego-only.json" \
    -r md:"$TMP/nego-only.md" >/dev/null 2>"$TMP/nego-only.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jq -r '[.agents[0].spec, .agents[0].init_error // "none", (.agents[0].initialize.supportedVersions | join(",")),
    "\(.agents[0].must_coverage.met)/\(.agents[0].must_coverage.musts)"] | join(" ")' "$TMP/nego-only.json")" = "2026-07-28 none 2026-07-28 41/45" ] &&
    grep -q '^- Supported versions (server/discover): `\["2026-07-28"\]`$' "$TMP/nego-only.md" &&
    ok "a 2026-07-28-only server (initialize refused): probed by server/discover, judged at 2026-07-28, 41 of 45 MUSTs met over stdio" ||
    bad "2026-07-28 only: exit $rc $(jq -c '[.agents[0].spec, .agents[0].init_error, .agents[0].must_coverage]' "$TMP/nego-only.json")"
# a server nobody answers: no revision learnt, judged at the default, its tests FAIL (not NA)
"$ANANKE" comply --protocol mcp -t required.modern.tools.list --agent gone="http://127.0.0.1:1/mcp" \
    -r json:"$TMP/nego-gone.json" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] && [ "$(jq -r '[.agents[0].spec, .agents[0].tests[0].status] | join(" ")' "$TMP/nego-gone.json")" = "2026-07-28 fail" ] &&
    ok "no --spec, an endpoint nobody answers: judged at 2026-07-28, FAIL" ||
    bad "no --spec, unreachable: exit $rc $(jq -c '[.agents[0].spec, .agents[0].tests[0].status]' "$TMP/nego-gone.json")"

# shellcheck source=mcp-modern-reuse.sh
. "$HERE/mcp-modern-reuse.sh"

# docs/comply.md's 2026-07-28 table (generated from the suite)
SET=compliance/mcp/requirements/2026-07-28.json
{
    echo '| ID | level | requirement | tests |'
    echo '|---|---|---|---|'
    jq -s -r --slurpfile tests "$TMP/tests.jsonl" '.[0].requirements[] | . as $r
        | [$tests[] | select((.requirements | index($r.id)) and ((.revisions // []) | index("2026-07-28"))) | "`\(.file)`"] as $by
        | "| [\($r.id)](\($r.section)) | \($r.level) | \($r.title) | \(if ($by | length) > 0 then ($by | join(", ")) else "not tested" end) |"' "$SET"
} >"$TMP/table-2026.md"
doc=docs/comply.md
awk -v t="$TMP/table-2026.md" '
    /^<!-- \/mcp-2026-07-28-requirements -->$/ { while ((getline l < t) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- mcp-2026-07-28-requirements -->$/ { skip = 1 }' "$doc" >"$TMP/comply-2026.md"
if ! grep -q '^<!-- mcp-2026-07-28-requirements -->$' "$doc"; then
    bad "$doc: no <!-- mcp-2026-07-28-requirements --> block"
elif [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
    cp "$TMP/comply-2026.md" "$doc"
    ok "$doc: the MCP 2026-07-28 requirement table rewritten (ANANKE_UPDATE_DOCS=1)"
elif cmp -s "$TMP/comply-2026.md" "$doc"; then
    ok "$doc: the MCP 2026-07-28 requirement table is current"
else
    bad "$doc: the MCP 2026-07-28 requirement table is stale: ANANKE_UPDATE_DOCS=1 tests/comply/mcp.sh"
    diff "$doc" "$TMP/comply-2026.md" | head -n 10
fi
