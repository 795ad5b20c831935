# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/mcp-faults.sh and mcp-modern-reuse.sh (uses
# mcp.sh's ANANKE, MOCK, TMP, ok, bad, status, spawn_server, stop_pids):
# one fault of ananke-mock mcp judged by the test that must catch it, over
# stdio and over Streamable HTTP, and the loop that runs faults six at a
# time and counts their verdicts.

# runs_on_stdio TEST: the test runs over stdio (its "transports" name it,
# or it has no mcpHttp step and no "transports")
runs_on_stdio() {
    jq -e '(.transports // (if any(.steps[]; has("mcpHttp")) then ["http"] else ["stdio", "http"] end))
        | index("stdio")' "compliance/mcp/$1.jsont" >/dev/null
}

# fault_case TRANSPORT FAULT AGENT TEST SPEC: its verdict, "ok MESSAGE" or
# "bad MESSAGE", one line on stdout. SPEC: a revision for --spec, or "".
# The test FAILs and the requirements it cites are not_met; over stdio a
# test of Streamable HTTP only is NA instead.
fault_case() {
    local tr=$1 f=$2 agent=$3 t=$4 out="$TMP/fault-$1-$2${5:+-$5}" spec=() rev=""
    [ -z "$5" ] || { spec=(--spec "$5"); rev="$5: "; }
    "$ANANKE" comply --protocol mcp --timeout-scale 0.4 "${spec[@]}" -t "$t" --agent "$f=$agent" \
        -r json:"$out.json" >/dev/null 2>"$out.err"
    local st reqs unmet
    st=$(status "$t" "$out.json" 2>/dev/null)
    if [ "$tr" = stdio ] && ! runs_on_stdio "$t"; then
        [ "$st" = na ] && echo "ok ${rev}fault $f (stdio): $t NA (a test of Streamable HTTP)" ||
            echo "bad ${rev}fault $f (stdio): $t is '$st' (want na: no HTTP over stdio)"
        return
    fi
    reqs=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .requirements | sort | join(",")' "$out.json" 2>/dev/null)
    unmet=$(jq -r --arg id "$t" '[.agents[0].tests[] | select(.id == $id) | .requirements[]] as $r
        | [.agents[0].requirements | to_entries[] | select((.key | IN($r[])) and .value.status == "not_met") | .key]
        | sort | join(",")' "$out.json" 2>/dev/null)
    if [ "$st" = fail ] && [ -n "$reqs" ] && [ "$unmet" = "$reqs" ]; then
        echo "ok ${rev}fault $f ($tr): $t FAIL, $reqs not_met"
    else
        echo "bad ${rev}fault $f ($tr): $t is '$st' (want fail; requirements '$reqs', not_met '$unmet')"
    fi
}

# fault_both FAULT TEST SPEC: fault_case over stdio, then over HTTP
fault_both() {
    local f=$1 port="$TMP/fault-$1${3:+-$3}" fpid started
    fault_case stdio "$f" "$MOCK mcp --fault $f" "$2" "$3"
    spawn_server "$port.port" 0.1 "$port.out" "$port.srv" \
        "$MOCK" mcp --http --fault "$f" --port-file "$port.port"
    started=$?
    fpid=$spawned_pid
    if [ "$started" -eq 0 ]; then
        fault_case http "$f" "http://127.0.0.1:$(tr -d '[:space:]' <"$port.port")/mcp" "$2" "$3"
    else
        echo "bad fault $f: ananke-mock mcp --http did not start"
    fi
    stop_pids "$fpid"
}

# fault_loop TESTOF SPECOF FAULT...: fault_both for each FAULT, six at a
# time in subshells (MCP_FAULT_JOBS: most of a case is waiting on a
# window, not CPU), the verdicts counted afterwards in order; TESTOF and
# SPECOF are functions printing a fault's test and revision (or nothing)
fault_loop() {
    local testof=$1 specof=$2 f j verdict msg jobs_=()
    shift 2
    for f in "$@"; do
        fault_both "$f" "$("$testof" "$f")" "$("$specof" "$f")" >"$TMP/fault-$f-$specof.verdicts" 2>&1 &
        jobs_+=($!)
        if [ "${#jobs_[@]}" -ge "${MCP_FAULT_JOBS:-6}" ]; then
            wait "${jobs_[0]}"
            jobs_=("${jobs_[@]:1}")
        fi
    done
    for j in "${jobs_[@]}"; do wait "$j"; done
    for f in "$@"; do
        while read -r verdict msg; do
            if [ "$verdict" = ok ]; then ok "$msg"; else bad "${msg:-fault $f: no verdict}"; fi
        done <"$TMP/fault-$f-$specof.verdicts"
        [ -s "$TMP/fault-$f-$specof.verdicts" ] || bad "fault $f: no verdict"
    done
}
