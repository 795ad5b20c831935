#!/bin/sh
# A tiny MCP server over stdio (JSON-RPC 2.0, one message per line) for the
# optional.mcp.stdio compliance test: initialize, tools/list, tools/call of
# one tool, "ananke_token", which returns the text MCP-TOKEN-7f3a9. Plain
# POSIX sh and sed, so the suite needs no Python or Node at test time.
id_of() {
  printf '%s\n' "$1" | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\("[^"]*"\|[0-9-][0-9]*\).*/\1/p'
}
while IFS= read -r line; do
  id=$(id_of "$line")
  case "$line" in
    *'"method":"initialize"'*|*'"method": "initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"ananke-test","version":"1"}}}\n' "$id" ;;
    *'"method":"tools/list"'*|*'"method": "tools/list"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"ananke_token","description":"Returns the ananke test token.","inputSchema":{"type":"object","properties":{}}}]}}\n' "$id" ;;
    *'"method":"tools/call"'*|*'"method": "tools/call"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"MCP-TOKEN-7f3a9"}],"isError":false}}\n' "$id" ;;
    *'"method":"ping"'*|*'"method": "ping"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
    *'"id"'*)
      [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id" ;;
  esac
done
