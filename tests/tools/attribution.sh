#!/usr/bin/env bash
# Which test a tool call belongs to with --parallel above 1 (docs/tools.md
# "Parallel runs"), end to end through the official MCP SDK client:
# - ACP (tests/tools/acp-agent.cjs, its tools at session/new's mcpServers,
#   the test's own path /t/TOKEN/mcp) with -j 4, four tests whose calls
#   overlap, three with tool_mocks of their own: each sees only its own
#   call and its own result (server_calls, tools.consistent, strict); the
#   token appears in no report; the same with an agent without HTTP MCP,
#   given stdio entries (ananke tool-proxy NAME --url OWN_URL);
# - one shared agent (target.start, the shared path) with -j 2: both tests
#   end as an ERROR naming the call and the fix; with -j 1 they pass.
# - --record: the token echoed into a call is in no file of the recording;
# - the proxy's paths: an unknown token, a malformed one and other paths
#   are 404.
# Called by tests/tools/run.sh (which sets ANANKE_BUILD); runs alone too.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=port.sh
. "$here/port.sh"
root=$(cd "$here/../.." && pwd)
build=${ANANKE_BUILD:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac
mods="$root/tests/mcp/node_modules"
[ -d "$mods/@modelcontextprotocol/server-everything" ] || {
  echo "SKIP attribution: tests/mcp/node_modules lacks server-everything"; exit 0; }
export NODE_PATH="$mods" ANANKE_HISTORY=0 TOOLS_DIR="$here"
export MCP_EVERYTHING="$mods/@modelcontextprotocol/server-everything/dist/index.js"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok=0 bad=0
check() { # NAME: the last command's verdict
  if [ "$?" -eq 0 ]; then echo "ok   attribution: $1"; ok=$((ok + 1)); else
    echo "FAIL attribution: $1"; sed 's/^/    /' "$tmp/out" | tail -20; bad=$((bad + 1)); fi
}
run() { # CASE WANT_EXIT ARGS...
  local c=$1 want=$2; shift 2
  AGENT_PORT=$(free_port)
  export AGENT_PORT
  (cd "$here/attribution/$c" && timeout 120 "$build/ananke" run -r "json:$tmp/results.json" \
    -r "junit:$tmp/junit.xml" "$@") >"$tmp/out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { echo "exit $got, expected $want" >>"$tmp/out"; return 1; }
}

acp_own() { # the ACP run's results: each test its own call and result
python3 - "$tmp/results.json" >>"$tmp/out" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tests = r["tests"]
assert len(tests) == 4, [t["name"] for t in tests]
spans = []
for t in tests:
    n = t["name"].split()[2]
    assert t["status"] == "pass", (t["name"], t.get("error"), t.get("findings"))
    calls = t["transcript"]["turns"][0]["server_calls"]
    assert len(calls) == 1, (t["name"], calls)   # its own call only
    c = calls[0]
    assert c["arguments"] == {"message": n}, (t["name"], c)
    text = c["result"]["content"][0]["text"]
    assert text == ("Echo: 4" if n == "4" else "result of test " + n), (t["name"], c)
    assert c["mocked"] == (n != "4"), c
    spans.append((t["start_ms"], t["start_ms"] + t["duration_ms"]))
# they ran at once: every test started before any ended
assert max(s for s, _ in spans) < min(e for _, e in spans), spans
PY
}

run acp 0 -j 4 && acp_own
check "ACP -j 4: each test sees only its own call and its own tool_mocks result"

# an agent without HTTP MCP gets stdio entries: `ananke tool-proxy NAME
# --url OWN_URL`, spawned by the SDK's stdio client
ACP_STDIO=1 run acp 0 -j 4 && acp_own
check "ACP -j 4, stdio mcpServers (ananke tool-proxy --url): each test its own call and result"

# the token is a secret: the reports hold no /t/<hex>/ path
! grep -Eq '/t/[0-9a-f]{32}/' "$tmp/results.json" "$tmp/junit.xml" "$tmp/out"
check "the test's token is in no report"

run shared 1 -j 2 &&
python3 - "$tmp/results.json" >>"$tmp/out" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tests"]:
    assert t["status"] == "error", (t["name"], t["status"])
    e = t["error"]["message"]
    assert "tool server 'everything' is shared by 2 tests running at once: the call echo(" in e, e
    assert "use --parallel 1, or give the agent the per-test URL ${TOOL_SERVERS.everything.url}" \
        " in a per-test place" in e, e
    # the refused call is given to neither test
    n = t["name"].split()[1]
    for c in t["transcript"]["turns"][0].get("server_calls") or []:
        assert c["arguments"] == {"message": n}, (t["name"], c)
PY
check "shared path, -j 2: each test is an ERROR naming the call and the fix"

run shared 0 -j 1 &&
python3 - "$tmp/results.json" >>"$tmp/out" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tests"]:
    n = t["name"].split()[1]
    assert t["status"] == "pass", (t["name"], t.get("error"))
    calls = t["transcript"]["turns"][0]["server_calls"]
    assert [c["arguments"] for c in calls] == [{"message": n}], calls
    assert calls[0]["result"]["content"][0]["text"] == "result of test " + n, calls
PY
check "shared path, -j 1: unchanged, each test its own call and mock"

run paths 0 &&
python3 - "$tmp/results.json" >>"$tmp/out" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
got = t["transcript"]["turns"][0]["input"]
want = ("say own=200 shared=200 other=404 upper=404 short=404 long=404 dots=404 dots2=404 "
        "trail=404 root=404")
assert got == want, got
PY
check "the test's own path and the shared one answer; another token, a changed or traversing path: 404"

# the recording's tools/NAME.jsonl: the agent put its own URL (the token)
# into the call's arguments and the server echoed it; neither is written
run record 0 --record "$tmp/rec" &&
grep -q '"name":"echo"' "$tmp/rec/tools/everything.jsonl" &&
grep -q 'my tools are at http://127.0.0.1:[0-9]*/t/\[redacted\]/mcp' "$tmp/rec/tools/everything.jsonl" &&
! grep -REq '/t/[0-9a-f]{32}/' "$tmp/rec"
check "a recording holds no test's token (tools/everything.jsonl, arguments and result)"

exit_on=$((bad > 0))
echo "attribution: $ok passed, $bad failed"
exit "$exit_on"
