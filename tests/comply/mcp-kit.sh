#!/usr/bin/env bash
# ananke comply's MCP verdicts against the official MCP conformance kit's
# (npm @modelcontextprotocol/conformance, installed in tests/mcp-kit by
# scripts/setup.sh), scenario by scenario, on the same servers over
# Streamable HTTP (the kit speaks no stdio):
#  - @modelcontextprotocol/server-everything (`streamableHttp`);
#  - ananke-mock mcp --http;
#  - ananke-mock mcp --http --version 1999-01-01 (a fault: a version
#    nobody speaks).
# For each kit scenario that checks what an ananke test checks (PAIRS
# below), the two verdicts must agree: kit SUCCESS <=> ananke pass; kit
# FAILURE <=> ananke fail, or na where the kit fails a server for not
# having the capability the ananke test requires. Known disagreements are
# listed in DISAGREE with why, and checked to still disagree (stale
# otherwise). The agreement table is printed (docs/comply.md "The official
# MCP kit").
#
#   ANANKE_BUILD=build tests/comply/mcp-kit.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
pids=()
trap 'stop_pids "${pids[@]}"; rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-mcp-kit # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_node "the MCP kit and server-everything"
need_jq
KIT_DIR=$tests_root/tests/mcp-kit
KIT_JS=$KIT_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
EVERYTHING=$tests_root/tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
[ -f "$KIT_JS" ] || broken "the MCP kit is missing (run scripts/setup.sh: npm ci in tests/mcp-kit)"
[ -f "$EVERYTHING" ] || broken "server-everything is missing (run scripts/setup.sh: npm ci in tests/mcp)"

# kit scenario -> the ananke test that checks the same thing
declare -A PAIRS=(
    [server-initialize]=required.initialize
    [ping]=required.ping
    [logging-set-level]=optional.logging.set-level
    [tools-list]=required.tools.list
    [resources-list]=required.resources.list
    [prompts-list]=required.prompts.list
)
# SERVER/SCENARIO -> why the verdicts differ, for a disagreement that is
# understood (none today: over HTTP both clients send the version the server
# chose, which the version-fault mock then refuses with HTTP 400, so both
# fail every scenario there)
declare -A DISAGREE=()

kit() { # URL SCENARIO OUTDIR: the kit's status (SUCCESS, FAILURE, ...)
    rm -rf "$3"
    timeout -k 5 60 node --import "$KIT_DIR/node20.mjs" "$KIT_JS" server --url "$1" --scenario "$2" \
        -o "$3" >"$3.log" 2>&1
    jq -r --arg s "$2" '[.[] | select(.status != "INFO")] | if length == 0 then "NONE"
        elif all(.status == "SUCCESS") then "SUCCESS" else "FAILURE" end' "$3"/*/checks.json 2>/dev/null ||
        echo NONE
}

table="| server | kit scenario | kit | ananke test | ananke | |\n|---|---|---|---|---|---|\n"
compare() { # NAME URL
    local name=$1 url=$2
    "$ANANKE" comply --protocol mcp -j 4 --timeout-scale 0.5 --agent "$name=$url" \
        -r json:"$TMP/$name.json" >/dev/null 2>"$TMP/$name.err"
    local s
    for s in $(printf '%s\n' "${!PAIRS[@]}" | sort); do
        local t=${PAIRS[$s]} k a agree mark
        k=$(kit "$url" "$s" "$TMP/kit-$name-$s")
        a=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .status' "$TMP/$name.json")
        agree=no
        { [ "$k" = SUCCESS ] && [ "$a" = pass ]; } && agree=yes
        { [ "$k" = FAILURE ] && { [ "$a" = fail ] || [ "$a" = na ]; }; } && agree=yes
        local why=${DISAGREE[$name/$s]:-}
        if [ "$agree" = yes ] && [ -z "$why" ]; then
            ok "$name: $s: kit $k, ananke $t $a"
            mark=agree
        elif [ "$agree" = no ] && [ -n "$why" ]; then
            ok "$name: $s: kit $k, ananke $t $a (a known disagreement: $why)"
            mark="differ: $why"
        elif [ -n "$why" ]; then
            bad "$name: $s: now agree (kit $k, ananke $a): remove it from DISAGREE"
            mark="STALE"
        else
            bad "$name: $s: kit $k, ananke $t $a: the verdicts disagree"
            sed 's/^/    /' "$TMP/kit-$name-$s.log" | tail -n 5
            mark="DISAGREE"
        fi
        table+="| $name | \`$s\` | $k | \`$t\` | $a | $mark |\n"
    done
}

# server-everything over Streamable HTTP, on a free port
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
PORT=$port node "$EVERYTHING" streamableHttp >"$TMP/ev.out" 2>"$TMP/ev.log" &
pids+=($!)
for _ in $(seq 100); do grep -q 'listening on port' "$TMP/ev.log" && break; sleep 0.1; done
compare everything "http://127.0.0.1:$port/mcp"

# ananke-mock mcp --http, then with the version fault
mock() { # NAME ARGS...
    local name=$1
    shift
    spawn_server "$TMP/$name.port" 0.1 "$TMP/$name.out" "$TMP/$name.err" \
        "$MOCK" mcp --http "$@" --port-file "$TMP/$name.port"
    local started=$?
    pids+=("$spawned_pid")
    [ "$started" -eq 0 ] || broken "ananke-mock mcp --http did not start: $(head -c 300 "$TMP/$name.err")"
    url="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/$name.port")/mcp"
}
mock mock
compare mock "$url"
mock version-fault --version 1999-01-01
compare version-fault "$url"

printf '%b' "$table"
finish
