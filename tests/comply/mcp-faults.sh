# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/mcp.sh (uses its ANANKE, MOCK, TMP, ok, bad,
# status, spawn_server, stop_pids): every fault of ananke-mock mcp's
# MCP_FAULT_MAP (src/mock/mcp_server.h) is caught by the test of
# compliance/mcp that cites the requirement it breaks, over stdio and over
# Streamable HTTP: that test FAILs on the faulty mock (it PASSes on the
# plain one: section 6 of mcp.sh); the JSON report says the requirement is
# not_met. The HTTP faults (HTTP_FAULTS: session, header, Origin and 202
# rules of Streamable HTTP) are caught over HTTP; over stdio their test is
# NA. The 2026-07-28 faults (MODERN_FAULTS) likewise, judged with --spec
# 2026-07-28.

# fault -> the test that must catch it
declare -A FAULTS=(
    [text-empty]=optional.tools.call.simple-text
    [image-no-mime]=optional.tools.call.image
    [audio-no-data]=optional.tools.call.audio
    [embedded-no-resource]=optional.tools.call.embedded-resource
    [mixed-text-only]=optional.tools.call.mixed-content
    [no-log]=optional.tools.call.logging
    [error-not-flagged]=optional.tools.call.error
    [no-progress]=optional.tools.call.progress
    [completion-no-values]=optional.completion.complete
    [text-no-mime]=optional.resources.read-text
    [binary-as-text]=optional.resources.read-binary
    [template-literal]=optional.resources.templates-read
    [subscribe-refused]=optional.resources.subscribe
    [unsubscribe-refused]=optional.resources.unsubscribe
    [prompt-no-role]=optional.prompts.get-simple
    [prompt-args-ignored]=optional.prompts.get-with-args
    [prompt-no-resource]=optional.prompts.get-embedded-resource
    [prompt-no-image]=optional.prompts.get-with-image
    [log-level-refused]=optional.logging.set-level
    [ping-not-empty]=required.ping
)
# the faults of Streamable HTTP's own rules -> the test (mcpHttp steps) that must catch it
declare -A HTTP_FAULTS=(
    [session-id-invalid]=required.http.session.id-visible-ascii
    [session-not-required]=optional.http.session.missing
    [delete-ignored]=required.http.session.delete
    [session-gone-400]=optional.http.session.unknown
    [version-ignored]=required.http.protocol-version-header
    [get-json]=required.http.get-stream
    [origin-ignored]=required.http.origin.foreign
    [notification-200]=required.http.notification-accepted
)
# the faults of MCP 2026-07-28 (stateless, HTTP only; judged with --spec
# 2026-07-28) -> the test that must catch it
declare -A MODERN_FAULTS=(
    [discover-no-versions]=required.modern.discover
    [meta-not-required]=required.modern.meta-required
    [version-any]=required.modern.version-unsupported
    [headers-unchecked]=required.modern.header-mismatch
    [removed-served]=required.modern.removed-method
    [no-result-type]=required.modern.tools.list
    [no-cache-hints]=required.modern.caching
    [unknown-resource-empty]=required.modern.resource-not-found
    [unknown-method-answered]=required.modern.error.method-not-found
    [unknown-tool-answered]=required.modern.tools.call.unknown-tool
    [unknown-prompt-answered]=required.modern.error.invalid-params
    [resource-no-name]=required.modern.resources.list
    [prompt-no-name]=required.modern.prompts.list
)

# the mock's --help lists exactly these faults
listed=$("$MOCK" mcp --help | sed -n '/^faults/,/^$/p' | awk 'NF && !/^faults/ {print $1}' | sort)
known=$(printf '%s\n' "${!FAULTS[@]}" "${!HTTP_FAULTS[@]}" "${!MODERN_FAULTS[@]}" | sort)
[ "$listed" = "$known" ] && ok "faults: every fault of the mock has its test" ||
    bad "faults: the mock's list and FAULTS + HTTP_FAULTS + MODERN_FAULTS differ: $(diff <(echo "$listed") <(echo "$known") | tr '\n' ' ')"

# fault_caught TRANSPORT FAULT AGENT: its verdict, "ok MESSAGE" or "bad
# MESSAGE", one line on stdout (the faults run three at a time in
# subshells; their verdicts are counted afterwards, in order)
fault_caught() {
    local tr=$1 f=$2 agent=$3 t=${FAULTS[$2]:-${HTTP_FAULTS[$2]:-${MODERN_FAULTS[$2]}}} out="$TMP/fault-$1-$2"
    local spec=()
    [ -z "${MODERN_FAULTS[$f]:-}" ] || spec=(--spec 2026-07-28)
    "$ANANKE" comply --protocol mcp --timeout-scale 0.4 "${spec[@]}" -t "$t" --agent "$f=$agent" \
        -r json:"$out.json" >/dev/null 2>"$out.err"
    local st reqs unmet
    st=$(status "$t" "$out.json")
    if [ -n "${HTTP_FAULTS[$f]:-}${MODERN_FAULTS[$f]:-}" ] && [ "$tr" = stdio ]; then
        [ "$st" = na ] && echo "ok fault $f (stdio): $t NA (a test of Streamable HTTP)" ||
            echo "bad fault $f (stdio): $t is '$st' (want na: no HTTP over stdio)"
        return
    fi
    reqs=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .requirements | sort | join(",")' "$out.json")
    unmet=$(jq -r --arg id "$t" '[.agents[0].tests[] | select(.id == $id) | .requirements[]] as $r
        | [.agents[0].requirements | to_entries[] | select((.key | IN($r[])) and .value.status == "not_met") | .key]
        | sort | join(",")' "$out.json")
    if [ "$st" = fail ] && [ -n "$reqs" ] && [ "$unmet" = "$reqs" ]; then
        echo "ok fault $f ($tr): $t FAIL, $reqs not_met"
    else
        echo "bad fault $f ($tr): $t is '$st' (want fail; requirements '$reqs', not_met '$unmet')"
    fi
}
# one fault over both transports, its verdicts in $TMP/fault-F.verdicts
fault_both() {
    local f=$1 fpid started
    fault_caught stdio "$f" "$MOCK mcp --fault $f"
    spawn_server "$TMP/fault-$f.port" 0.1 "$TMP/fault-$f.out" "$TMP/fault-$f.srv" \
        "$MOCK" mcp --http --fault "$f" --port-file "$TMP/fault-$f.port"
    started=$?
    fpid=$spawned_pid
    if [ "$started" -eq 0 ]; then
        fault_caught http "$f" "http://127.0.0.1:$(tr -d '[:space:]' <"$TMP/fault-$f.port")/mcp"
    else
        echo "bad fault $f: ananke-mock mcp --http did not start"
    fi
    stop_pids "$fpid"
}
# (waits name the fault jobs: mcp.sh's servers are children of this shell too)
jobs_=()
for f in $(printf '%s\n' "${!FAULTS[@]}" "${!HTTP_FAULTS[@]}" "${!MODERN_FAULTS[@]}" | sort); do
    fault_both "$f" >"$TMP/fault-$f.verdicts" 2>&1 &
    jobs_+=($!)
    if [ "${#jobs_[@]}" -ge 3 ]; then
        wait "${jobs_[0]}"
        jobs_=("${jobs_[@]:1}")
    fi
done
for j in "${jobs_[@]}"; do wait "$j"; done
for f in $(printf '%s\n' "${!FAULTS[@]}" "${!HTTP_FAULTS[@]}" "${!MODERN_FAULTS[@]}" | sort); do
    while read -r verdict msg; do
        if [ "$verdict" = ok ]; then ok "$msg"; else bad "${msg:-fault $f: no verdict}"; fi
    done <"$TMP/fault-$f.verdicts"
    [ -s "$TMP/fault-$f.verdicts" ] || bad "fault $f: no verdict"
done
