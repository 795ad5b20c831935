# shellcheck shell=bash
# Sourced by the suites that need server-everything over Streamable HTTP
# (tests/mcp/run.sh, tests/tools/run.sh).
#
# everything_http_start ENTRY DIR: starts `node ENTRY streamableHttp` on
# port 0, held to 127.0.0.1 by loopback.cjs, which writes the port it got to
# DIR/port (the server's own "listening on port N" line is printed on
# EADDRINUSE too). Sets srv_pid and MCP_HTTP_URL (exported); its output goes
# to DIR/log. Returns 1 if it did not listen within 10 s.
everything_http_start() {
  local entry=$1 dir=$2 _
  rm -f "$dir/port"
  PORT=0 LOOPBACK_PORT_FILE="$dir/port" \
    node -r "$(dirname "${BASH_SOURCE[0]}")/loopback.cjs" "$entry" streamableHttp >"$dir/log" 2>&1 &
  srv_pid=$!
  for _ in $(seq 1 200); do
    [ -s "$dir/port" ] && break
    kill -0 "$srv_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ ! -s "$dir/port" ] || ! kill -0 "$srv_pid" 2>/dev/null; then
    kill "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; srv_pid=""
    return 1
  fi
  MCP_HTTP_URL="http://127.0.0.1:$(head -n1 "$dir/port")/mcp"
  export MCP_HTTP_URL
}
