# The proxy's paths, probed from a hook with the test's own URL ($1):
# prints {"CODES": "..."}, each path's HTTP status, for the turn to echo.
own=$1
base=${own%%/t/*}
tok=${own#"$base"/t/}
tok=${tok%/mcp}
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}'
code() { curl -s -o /dev/null -w '%{http_code}' -X POST -H 'content-type: application/json' \
  -H 'accept: application/json, text/event-stream' --path-as-is -d "$init" "$base$1"; }
other=$(printf '%s' "$tok" | tr '0-9a-f' '1-9a-f0')
upper=$(printf '%s' "$tok" | tr 'a-f' 'A-F')
printf '{"CODES": "own=%s shared=%s other=%s upper=%s short=%s long=%s dots=%s dots2=%s trail=%s root=%s"}' \
  "$(code "/t/$tok/mcp")" "$(code /mcp)" "$(code "/t/$other/mcp")" "$(code "/t/$upper/mcp")" \
  "$(code "/t/${tok%?}/mcp")" "$(code "/t/${tok}0/mcp")" "$(code "/t/$tok/../mcp")" \
  "$(code "/t/../mcp")" "$(code "/t/$tok/mcp/")" "$(code /)"
