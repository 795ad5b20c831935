#!/usr/bin/env bash
# What ananke's tool proxy adds to an MCP tool call (issue 23: under 1 ms):
# an MCP client (bench/tools-proxy-client.mjs, Node's fetch, keep-alive, one
# call in flight) calls `echo` on `ananke-mock mcp --http`, alternately
# straight and through the proxy of a running `ananke run` (a test's hook
# runs the client with ${TOOL_SERVERS.shop.url}, the test's own path), in
# 10 interleaved rounds; medians and p90 of each, and their difference.
#   bench/tools-proxy.sh [CALLS]     (default 4000: 2000 each way)
# Writes bench/out/tools-proxy.md; exits 1 when the median overhead is 1 ms
# or more. Uses build/ (make build) unless ANANKE_BUILD names another.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
B=${ANANKE_BUILD:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
ANANKE=$B/ananke MOCK=$B/ananke-mock
CALLS=${1:-4000}
[ -x "$ANANKE" ] && [ -x "$MOCK" ] || { echo "tools-proxy: build ananke first (make build)" >&2; exit 2; }
command -v node >/dev/null || { echo "tools-proxy: node not found" >&2; exit 2; }
W=$(mktemp -d)
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$W"
}
trap cleanup EXIT

wait_file() { for _ in $(seq 1 500); do [ -s "$1" ] && return 0; sleep 0.01; done; return 1; }

"$MOCK" mcp --http --port 0 --port-file "$W/mcp-port" >/dev/null 2>"$W/mcp.err" </dev/null &
pids+=($!)
cat >"$W/agent.yaml" <<'Y'
rules:
  - match: ".*"
    steps:
      - text: "ok"
Y
"$MOCK" agui --scenario "$W/agent.yaml" --port 0 --port-file "$W/agui-port" >/dev/null 2>"$W/agui.err" &
pids+=($!)
wait_file "$W/mcp-port" && wait_file "$W/agui-port" || { echo "tools-proxy: a mock did not start" >&2; exit 2; }
DIRECT=http://127.0.0.1:$(cat "$W/mcp-port")/mcp
cat >"$W/ananke.config.yaml" <<Y
version: "1.0"
tool_servers:
  shop:
    upstream: { endpoint: "$DIRECT" }
target:
  type: agui
  agentId: bench
  endpoint: "http://127.0.0.1:$(cat "$W/agui-port")/agent"
Y
cat >"$W/bench.test.yaml" <<Y
version: "1.0"
name: tool proxy bench
hooks:
  - cmd: [node, "$BENCH/tools-proxy-client.mjs", "\${TOOL_SERVERS.shop.url}", "$DIRECT", "$W/out.json", "$CALLS"]
    timeout_ms: 600000
turns:
  - user: "hi"
Y
(cd "$W" && "$ANANKE" run --no-history --color never bench.test.yaml >"$W/run.out" 2>&1) ||
    { cat "$W/run.out" >&2; echo "tools-proxy: the run failed" >&2; exit 2; }
[ -s "$W/out.json" ] || { cat "$W/run.out" >&2; echo "tools-proxy: the client wrote nothing" >&2; exit 2; }
read -r each dp50 dp90 pp50 pp90 over < <(node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const f = (x) => x.toFixed(0);
  console.log(r.calls_each, f(r.direct_p50_us), f(r.direct_p90_us), f(r.proxy_p50_us), f(r.proxy_p90_us), f(r.overhead_p50_us));
' "$W/out.json")
ok=no
[ "$over" -lt 1000 ] && ok=yes
mkdir -p "$BENCH/out"
{
  echo "### The tool proxy's cost per call"
  echo
  echo "Measured with \`bench/tools-proxy.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') · $(nproc) cores · Node $(node --version)"
  echo "· $each calls each way, one in flight, 10 interleaved rounds:"
  echo
  echo "| path | median | p90 |"
  echo "|---|---:|---:|"
  echo "| client → ananke-mock mcp (direct) | $dp50 µs | $dp90 µs |"
  echo "| client → ananke's proxy → ananke-mock mcp | $pp50 µs | $pp90 µs |"
  echo
  echo "Median overhead of the proxy: **$over µs** per call (target under 1 ms: $ok)."
} | tee "$BENCH/out/tools-proxy.md"
[ $ok = yes ]
