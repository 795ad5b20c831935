# ananke-mock's scripted MCP calls (docs/mock.md "Calling MCP tools") are
# checked when the scenario loads: each bad script is FILE:LINE:COL, exit 2.
set -u
fails=0
want() { # PROTO SCENARIO MESSAGE
  printf '%s' "$2" >"$OUT/$1.yaml"
  "$MOCK" "$1" --scenario "$OUT/$1.yaml" </dev/null >"$OUT/$1.out" 2>&1
  rc=$?
  if [ $rc -ne 2 ] || ! grep -qF -- "$3" "$OUT/$1.out"; then
    echo "FAIL $1: exit $rc, want 2 and: $3"; cat "$OUT/$1.out"; fails=$((fails + 1))
  fi
}
want agui 'rules:
  - steps:
      - tool: echo
        report: false
' "agui.yaml:3:9: 'report: false' needs 'server' (a call made and not reported)"
want acp 'prompts:
  - steps:
      - mcp_call: { tool: echo }
' "acp.yaml:3:19: 'mcp_call' needs a 'server' (a tool server's name or URL)"
want acp 'prompts:
  - steps:
      - mcp_call: { server: s, tool: echo, arguments: [1] }
' "'arguments' must be a map"
want http 'rules:
  - mcp_calls:
      - { server: s }
    response: {}
' "http.yaml:3:9: an MCP call needs 'server' and 'tool'"
want http 'rules:
  - mcp_calls: [{ server: s, tool: t, report: 3 }]
    response: {}
' "'report'"
want openai 'rules:
  - reply:
      tool_calls: [{ name: t, server: "" }]
' "openai.yaml:3"
[ $fails -eq 0 ]
