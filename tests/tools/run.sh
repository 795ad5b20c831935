#!/usr/bin/env bash
# The tool proxy end to end (docs/tools.md): a scripted AG-UI agent
# (tests/tools/agent.cjs) built on the official @modelcontextprotocol/sdk
# client calls its tools through ananke's proxy, whose upstream is
# @modelcontextprotocol/server-everything over stdio (both from
# tests/mcp/node_modules). Each case under tests/tools/cases/ holds the
# config and tests, `exit` (the expected exit code, default 0), and
# check.sh, run in the case directory with $OUT/results.json written.
# Usage: tests/tools/run.sh [CASE...]   (ANANKE_BUILD: the build dir)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=port.sh
. "$here/port.sh"
root=$(cd "$here/../.." && pwd)
build=${ANANKE_BUILD:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac
mods="$root/tests/mcp/node_modules"
if [ ! -d "$mods/@modelcontextprotocol/sdk" ] || [ ! -d "$mods/@modelcontextprotocol/server-everything" ]; then
  echo "SKIP tools: tests/mcp/node_modules lacks the MCP SDK or server-everything (make setup)"
  exit 0
fi
export NODE_PATH="$mods"
export MCP_EVERYTHING="$mods/@modelcontextprotocol/server-everything/dist/index.js"
# server-everything over Streamable HTTP too (loopback only, as in
# tests/mcp/run.sh), for the cases whose upstream is an endpoint:
# $MCP_HTTP_URL
# shellcheck source=../mcp/everything_http.sh
. "$root/tests/mcp/everything_http.sh"
srv_pid="" srv_dir=$(mktemp -d)
trap '[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; rm -rf "$srv_dir"' EXIT
everything_http_start "$MCP_EVERYTHING" "$srv_dir" ||
  { echo "FAIL setup: server-everything (streamableHttp) did not start"; cat "$srv_dir/log"; exit 1; }
pass=0 fail=0
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(cd "$here/cases" && ls))
for c in "${cases[@]}"; do
  dir="$here/cases/$c"
  export OUT="$dir/out"
  rm -rf "$OUT" && mkdir -p "$OUT"
  AGENT_PORT=$(free_port)
  export AGENT_PORT CASE_DIR="$dir"
  want=0
  [ -f "$dir/exit" ] && want=$(cat "$dir/exit")
  cmd="run"
  [ -f "$dir/cmd" ] && cmd=$(cat "$dir/cmd")
  # shellcheck disable=SC2086
  (cd "$dir" && timeout 120 "$build/ananke" $cmd --no-history -r "json:$OUT/results.json") \
    >"$OUT/stdout" 2>&1
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $c: exit $got, expected $want"; sed 's/^/    /' "$OUT/stdout" | tail -30
    fail=$((fail + 1)); continue
  fi
  if [ -f "$dir/check.sh" ] && ! (cd "$dir" && bash check.sh) >"$OUT/check" 2>&1; then
    echo "FAIL $c: check.sh"; sed 's/^/    /' "$OUT/check" | tail -30
    fail=$((fail + 1)); continue
  fi
  echo "ok   $c"; pass=$((pass + 1))
done
[ $# -eq 0 ] && { if ANANKE_BUILD="$build" bash "$here/coverage.sh"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
[ $# -eq 0 ] && { if ANANKE_BUILD="$build" bash "$here/replay.sh"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
[ $# -eq 0 ] && { if ANANKE_BUILD="$build" bash "$here/attribution.sh"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
echo "tools: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
