#!/usr/bin/env bash
# One page for every protocol: each comply run keeps its JSON result, then
# `ananke comply --merge` joins them into one HTML page (docs/comply.md
# "One page for all"). Here the agents are ananke-mock's, one of them with a
# fault per protocol. ANANKE, MOCK: the binaries (default: on PATH); OUT:
# the reports' directory; SCALE: --timeout-scale.
set -eu
ANANKE=${ANANKE:-ananke} MOCK=${MOCK:-ananke-mock} OUT=${OUT:-comply-report} SCALE=${SCALE:-1}
mkdir -p "$OUT"
# exit 1 (a required test failed) is a result here, not an error
run() { "$ANANKE" comply -j 4 --timeout-scale "$SCALE" "$@" >/dev/null 2>&1 || [ $? -eq 1 ]; }

run --agent mock="$MOCK acp" --agent no-cancel="$MOCK acp --fault ignore-cancel" \
    -r json:"$OUT/acp.json" -r html:"$OUT/acp.html"
run --protocol mcp --agent mock="$MOCK mcp" --agent no-meta="$MOCK mcp --fault meta-not-required" \
    -r json:"$OUT/mcp.json" -r html:"$OUT/mcp.html"

"$MOCK" a2a --version 0.3 --port 0 --port-file "$OUT/good.port" >/dev/null 2>&1 &
good=$!
"$MOCK" a2a --version 0.3 --fault wrong-error-code --port 0 --port-file "$OUT/bad.port" >/dev/null 2>&1 &
bad=$!
trap 'kill $good $bad 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$OUT/good.port" ] && [ -s "$OUT/bad.port" ] && break; sleep 0.1; done
run --protocol a2a --agent mock="http://127.0.0.1:$(cat "$OUT/good.port")" \
    --agent wrong-code="http://127.0.0.1:$(cat "$OUT/bad.port")" \
    -r json:"$OUT/a2a.json" -r html:"$OUT/a2a.html"

"$ANANKE" comply --merge "$OUT/acp.json" "$OUT/mcp.json" "$OUT/a2a.json" -r html:"$OUT/all.html" ||
    [ $? -eq 1 ]
