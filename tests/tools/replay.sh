#!/usr/bin/env bash
# Record and replay of the tool traffic end to end (docs/tools.md "Record
# and replay"): the scripted agent (tests/tools/agent.cjs, the official MCP
# SDK client) calls server-everything through ananke's proxy; the run is
# recorded (--record), the upstream is then stopped (its command pointed at
# a program that exits at once) and the run replayed (--replay-tools) with
# the same results; a replay miss names the call; --replay-miss passthrough
# sends it upstream; ignore_args makes a volatile argument match (and
# without it the call misses); a tool_mocks rule wins over the recording;
# a recording that is malformed, over replay_max_bytes, a symbolic link or
# no recording is refused (exit 2). Called by tests/tools/run.sh (which sets
# ANANKE_BUILD); runs alone too: bash tests/tools/replay.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=port.sh
. "$here/port.sh"
root=$(cd "$here/../.." && pwd)
build=${ANANKE_BUILD:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac
mods="$root/tests/mcp/node_modules"
[ -d "$mods/@modelcontextprotocol/server-everything" ] || {
  echo "SKIP replay: tests/mcp/node_modules lacks server-everything"; exit 0; }
export NODE_PATH="$mods" ANANKE_HISTORY=0
live="$mods/@modelcontextprotocol/server-everything/dist/index.js"
dir="$here/replay"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$dir/.no-ignore.tmp.yaml" "$dir/.cap.tmp.yaml"' EXIT
printf 'process.exit(1)\n' >"$tmp/stopped.js" # the upstream, stopped
ok=0 bad=0
check() { # NAME: the last command's verdict
  if [ "$?" -eq 0 ]; then echo "ok   replay: $1"; ok=$((ok + 1)); else
    echo "FAIL replay: $1"; sed 's/^/    /' "$tmp/out" | tail -20; bad=$((bad + 1)); fi
}
# run UPSTREAM_JS WANT_EXIT ARGS...: ananke run in the case directory
run() {
  local js=$1 want=$2; shift 2
  AGENT_PORT=$(free_port)
  export AGENT_PORT
  (cd "$dir" && MCP_EVERYTHING="$js" timeout 120 "$build/ananke" run -r "json:$tmp/results.json" "$@") \
    >"$tmp/out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { echo "exit $got, expected $want" >>"$tmp/out"; return 1; }
}
# calls TEXT...: the texts the first test's first turn got from the tool servers
calls() {
  python3 - "$tmp/results.json" "$@" <<'PY' >>"$tmp/out" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
sc = d["tests"][0]["transcript"]["turns"][0]["server_calls"]
got = [c["result"]["content"][0]["text"] if "content" in c["result"] else c["result"]["message"] for c in sc]
assert got == sys.argv[2:], got
PY
}
rec="$tmp/rec"

run "$live" 0 --record "$rec" --redact 'r-2222' recorded/ &&
  python3 - "$rec/tools/everything.jsonl" "$rec/redactions.json" <<'PY' >"$tmp/out" 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[0] == {"format": "ananke-tools/1", "server": "everything"}, lines[0]
assert any(l["method"] == "initialize" and "serverInfo" in l["result"] for l in lines[1:]), lines
calls = [l for l in lines[1:] if l["method"] == "tools/call"]
assert [(c["test"], c["turn"], c["name"], c["arguments"], c["is_error"], c["mocked"]) for c in calls] == [
    ("pay", 1, "get-sum", {"a": 2, "b": 3}, False, False),
    ("pay", 1, "echo", {"message": "charge 42", "request_id": "r-1111"}, False, False),
    ("pay", 1, "echo", {"message": "charge 42", "request_id": "[redacted]"}, False, False),
], calls
assert calls[0]["result"] == {"content": [{"type": "text", "text": "The sum of 2 and 3 is 5."}]}, calls[0]
assert calls[1]["result"]["content"][0]["text"] == "Echo: charge 42", calls[1]
red = json.load(open(sys.argv[2]))
assert {"what": "--redact r-2222", "file": "tools/everything.jsonl", "count": 1} in red, red
PY
check "--record writes tools/everything.jsonl: every call with its test, turn, arguments, result"

# mark the recorded answers, so a replayed answer is told from a live one
python3 - "$rec/tools/everything.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
calls = [l for l in lines if l.get("method") == "tools/call"]
calls[0]["result"]["content"][0]["text"] = "The sum of 2 and 3 is 5 (recorded)."
calls[2]["result"]["content"][0]["text"] = "Echo: charge 42 (recorded second)"
open(sys.argv[1], "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY

run "$tmp/stopped.js" 0 recorded/ &&
  python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]["transcript"]
res = [m["content"] for m in t["turns"][0]["messages"] if m["role"] == "tool"]
assert len(res) == 3 and all("tool error" in r for r in res), res
assert all(c["is_error"] for c in t["turns"][0]["server_calls"]), t' "$tmp/results.json" >>"$tmp/out" 2>&1
check "the stopped upstream answers no call"

run "$tmp/stopped.js" 0 --replay-tools "$rec" replayed/ &&
  calls "The sum of 2 and 3 is 5 (recorded)." "Echo: charge 42" "Echo: charge 42 (recorded second)"
check "--replay-tools with the upstream stopped: the recorded results, in turn (canonical arguments, ignore_args)"

run "$tmp/stopped.js" 1 --replay-tools "$rec" missed/ &&
  grep -q "ERROR pay" "$tmp/out" &&
  grep -qF "turn 1: no recorded call echo({\"message\":\"charge 43\"}) on tool server 'everything' in test 'pay'" "$tmp/out" &&
  calls "The sum of 2 and 3 is 5 (recorded)." "no recorded call echo({\"message\":\"charge 43\"}) on tool server 'everything' in test 'pay' of '$rec' (--replay-tools; --replay-miss passthrough sends such calls upstream)"
check "a replay miss is an ERROR naming the server, the tool and the canonical arguments"

run "$live" 0 --replay-tools "$rec" --replay-miss passthrough missed/ &&
  calls "The sum of 2 and 3 is 5 (recorded)." "Echo: charge 43"
check "--replay-miss passthrough: the miss goes upstream, the recorded call is replayed"

run "$tmp/stopped.js" 0 --replay-tools "$rec" mocked/ &&
  calls "mocked sum" "Echo: charge 42" &&
  python3 -c '
import json, sys
sc = json.load(open(sys.argv[1]))["tests"][0]["transcript"]["turns"][0]["server_calls"]
assert [c["mocked"] for c in sc] == [True, False], sc' "$tmp/results.json" >>"$tmp/out" 2>&1
check "a matching tool_mocks rule wins over the recording"

# the same config without ignore_args: the volatile request_id misses
sed '/ignore_args/,+1d' "$dir/ananke.config.yaml" >"$dir/.no-ignore.tmp.yaml"
run "$tmp/stopped.js" 1 -c .no-ignore.tmp.yaml --replay-tools "$rec" replayed/ &&
  grep -qF "no recorded call echo({\"message\":\"charge 42\",\"request_id\":\"r-9999\"})" "$tmp/out"
check "without ignore_args the volatile argument misses"
rm -f "$dir/.no-ignore.tmp.yaml"

# hostile recordings: exit 2 before anything runs, saying why
cp -r "$rec" "$tmp/bad" && printf '{"method": "tools/call", "name": "echo",, }\n' >>"$tmp/bad/tools/everything.jsonl"
n=$(wc -l <"$tmp/bad/tools/everything.jsonl")
run "$tmp/stopped.js" 2 --replay-tools "$tmp/bad" replayed/ &&
  grep -qF "$tmp/bad/tools/everything.jsonl:$n:41: invalid JSON" "$tmp/out"
check "a malformed recording: file:line:col"

sed 's/^    ignore_args:/    replay_max_bytes: 100\n    ignore_args:/' "$dir/ananke.config.yaml" >"$dir/.cap.tmp.yaml"
run "$tmp/stopped.js" 2 -c .cap.tmp.yaml --replay-tools "$rec" replayed/ &&
  grep -qF "is larger than 100 bytes: not read (tool_servers.everything.replay_max_bytes)" "$tmp/out"
check "a recording over replay_max_bytes: refused naming the key"
rm -f "$dir/.cap.tmp.yaml"

cp -r "$rec" "$tmp/link" && mv "$tmp/link/tools/everything.jsonl" "$tmp/elsewhere.jsonl" &&
  ln -s "$tmp/elsewhere.jsonl" "$tmp/link/tools/everything.jsonl"
run "$tmp/stopped.js" 2 --replay-tools "$tmp/link" replayed/ && grep -q "symbolic link" "$tmp/out"
check "a recorded file that is a symbolic link is not followed"

run "$tmp/stopped.js" 2 --replay-tools "$tmp" replayed/ && grep -q "is not an ananke recording" "$tmp/out"
check "a directory that is no recording"

run "$tmp/stopped.js" 2 --replay-miss passthrough replayed/ &&
  grep -qF -- "--replay-miss goes with --replay-tools DIR" "$tmp/out" &&
  run "$tmp/stopped.js" 2 --replay-tools "$rec" --replay-miss maybe replayed/ &&
  grep -qF -- "--replay-miss takes error or passthrough, not 'maybe'" "$tmp/out"
check "--replay-miss's values"

echo "replay: $ok passed, $bad failed"
[ "$bad" -eq 0 ]
