#!/bin/sh
# An MCP server for bombs.sh: answers initialize, then writes valid
# notifications without end (ananke stops reading it at --max-messages).
read -r _line
echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"flood","version":"1"}}}'
exec yes '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}'
