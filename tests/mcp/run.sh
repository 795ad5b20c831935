#!/usr/bin/env bash
# ananke's MCP target against real MCP servers: the reference servers from npm
# (@modelcontextprotocol/server-everything over stdio and Streamable HTTP,
# @modelcontextprotocol/server-filesystem in each test's sandbox; installed by
# scripts/setup.sh from tests/mcp/package.json) and `ananke-mock mcp`, a server
# whose tools misbehave on purpose (on stdio, and over Streamable HTTP answering
# in JSON or, with --sse, in SSE).
#
# One directory per case under tests/mcp/cases/, as in tests/e2e:
#   cmd       the ananke arguments, one line (default: "run")
#   exit      the expected exit code (default 0)
#   expect    lines that must appear, in this order, in stdout+stderr (durations
#             normalised: "123 ms" -> "N ms")
#   statuses  "STATUS NAME" per test, in run order, from the JSON report
#   check.sh  optional extra checks, run in the case directory with $OUT set
# plus the config and test files. The environment gives the servers:
#   MCP_EVERYTHING  server-everything's entry (node $MCP_EVERYTHING stdio)
#   MCP_FILESYSTEM  server-filesystem's entry (node $MCP_FILESYSTEM DIR)
#   ANANKE_MOCK     the ananke-mock binary (ananke-mock mcp on stdio)
#   MCP_HTTP_URL    server-everything in streamableHttp mode, on 127.0.0.1 only
#   MCP_MOCK_URL    ananke-mock mcp --http (JSON answers), on 127.0.0.1 only
#   MCP_MOCK_SSE_URL  ananke-mock mcp --http --sse (every answer an SSE stream)
# Usage: tests/mcp/run.sh [CASE...]; prints "mcp: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
B=$tests_build
ANANKE="${ANANKE:-$B/ananke}"
export ANANKE NO_COLOR=1
pass=0 fail=0

mods="$here/node_modules/@modelcontextprotocol"
export MCP_EVERYTHING="$mods/server-everything/dist/index.js"
export MCP_FILESYSTEM="$mods/server-filesystem/dist/index.js"
export ANANKE_MOCK="${ANANKE_MOCK:-$B/ananke-mock}"
if ! command -v node >/dev/null || [ ! -f "$MCP_EVERYTHING" ] || [ ! -f "$MCP_FILESYSTEM" ]; then
  echo "FAIL setup: node or the MCP servers are missing (run scripts/setup.sh: npm ci in tests/mcp)"
  echo "mcp: 0 passed, 1 failed"
  exit 1
fi

# server-everything over Streamable HTTP, forced onto loopback by the preload
# shellcheck source=everything_http.sh
. "$here/everything_http.sh"
srv_pid="" mock_pid="" sse_pid=""
srv_dir=$(mktemp -d)
mock_dir=$(mktemp -d)
cleanup() {
  stop_pids "$srv_pid" "$mock_pid" "$sse_pid"
  rm -rf "$srv_dir" "$mock_dir"
}
trap cleanup EXIT
if ! everything_http_start "$MCP_EVERYTHING" "$srv_dir"; then
  echo "FAIL setup: server-everything (streamableHttp) did not start"; sed 's/^/    /' "$srv_dir/log"
  echo "mcp: 0 passed, 1 failed"
  exit 1
fi
port=$(head -n1 "$srv_dir/port")

# ananke-mock mcp over Streamable HTTP: JSON answers, and SSE answers
start_mock() { # NAME FLAGS...: sets $spawned_pid, or fails the suite
  local name=$1; shift
  if ! spawn_server "$mock_dir/$name.port" 0.05 "$mock_dir/$name.out" "$mock_dir/$name.err" \
      timeout -k 5 600 "$ANANKE_MOCK" mcp --http --port 0 --port-file "$mock_dir/$name.port" "$@"; then
    echo "FAIL setup: ananke-mock mcp $* did not start"; sed 's/^/    /' "$mock_dir/$name.err"
    echo "mcp: 0 passed, 1 failed"
    exit 1
  fi
}
start_mock json; mock_pid=$spawned_pid
export MCP_MOCK_URL="$(head -n1 "$mock_dir/json.out")/mcp"
start_mock sse --sse; sse_pid=$spawned_pid
export MCP_MOCK_SSE_URL="$(head -n1 "$mock_dir/sse.out")/mcp"

# the HTTP server must be reachable on loopback only
if command -v ss >/dev/null; then
  if ss -ltnH "sport = :$port" | awk '{print $4}' | grep -qv '^127\.0\.0\.1:'; then
    echo "FAIL loopback: server-everything listens beyond 127.0.0.1:"; ss -ltn "sport = :$port"
    fail=$((fail + 1))
  else
    echo "ok   loopback: the HTTP server listens on 127.0.0.1 only"
    pass=$((pass + 1))
  fi
fi

# normalise, contains_in_order: tests/lib.sh

run_case() {
  local dir=$1 name
  name=$(basename "$dir")
  local out="$dir/out"
  rm -rf "$out"; mkdir -p "$out"
  local args="run"
  [ -f "$dir/cmd" ] && args=$(head -n1 "$dir/cmd")
  local want=0
  [ -f "$dir/exit" ] && want=$(tr -d '[:space:]' <"$dir/exit")
  # shellcheck disable=SC2086
  (cd "$dir" && exec "$ANANKE" $args --reporter "json:$out/results.json") >"$out/stdout" 2>&1
  local got=$?
  normalise <"$out/stdout" >"$out/normalised"
  local ok=1 why=""
  if [ "$got" != "$want" ]; then ok=0; why="exit $got, expected $want"; fi
  if [ $ok = 1 ] && [ -f "$dir/expect" ] && ! contains_in_order "$dir/expect" "$out/normalised" >"$out/why"; then
    ok=0; why=$(cat "$out/why")
  fi
  if [ $ok = 1 ] && [ -f "$dir/statuses" ]; then
    jq -r '.tests[] | "\(.status) \(.name)"' "$out/results.json" >"$out/statuses" 2>/dev/null
    if ! diff -u "$dir/statuses" "$out/statuses" >"$out/why"; then ok=0; why=$(cat "$out/why"); fi
  fi
  if [ $ok = 1 ] && [ -f "$dir/check.sh" ] && ! (cd "$dir" && OUT="$out" bash check.sh) >"$out/why" 2>&1; then
    ok=0; why="check.sh: $(cat "$out/why")"
  fi
  if [ $ok = 1 ]; then
    echo "ok   $name"; pass=$((pass + 1))
  else
    echo "FAIL $name: $why"; sed 's/^/    | /' "$out/stdout" | head -40
    fail=$((fail + 1))
  fi
}

if [ $# -gt 0 ]; then
  for c in "$@"; do run_case "$here/cases/$c"; done
else
  for d in "$here"/cases/*/; do run_case "${d%/}"; done
fi
for p in "$mock_pid" "$sse_pid"; do
  if ! kill -0 "$p" 2>/dev/null; then
    echo "FAIL ananke-mock mcp --http died during the run:"; tail -n 20 "$mock_dir"/*.err | sed 's/^/    /'
    fail=$((fail + 1))
  fi
done
if ! kill -0 "$srv_pid" 2>/dev/null; then
  echo "FAIL server-everything (streamableHttp) died during the run:"; sed 's/^/    /' "$srv_dir/log" | tail -20
  fail=$((fail + 1))
fi
echo "mcp: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
