# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/mcp-modern.sh (uses mcp.sh's ANANKE, MOCK, TMP,
# ok, bad, spawn_server, stop_pids): MCP 2026-07-28 keeps what 2025-11-25
# says of tool content, resources, prompts, completion and progress; the
# mock's faults of those (mcp-faults.sh's FAULTS, judged there at
# 2025-11-25) are caught at 2026-07-28 too, each by the *.modern.* test of
# its feature (over Streamable HTTP: the modern tests are NA over stdio,
# which mcp-faults.sh checks for its own MODERN_FAULTS). The test FAILs and
# the requirements it cites are not_met; on the plain mock it PASSes
# (mcp-modern.sh).

# fault -> the 2026-07-28 test that must catch it
declare -A MODERN_REUSE=(
    [text-empty]=optional.modern.tools.call.simple-text
    [image-no-mime]=optional.modern.tools.call.image
    [audio-no-data]=optional.modern.tools.call.audio
    [embedded-no-resource]=optional.modern.tools.call.embedded-resource
    [mixed-text-only]=optional.modern.tools.call.mixed-content
    [error-not-flagged]=optional.modern.tools.call.error
    [no-progress]=optional.modern.tools.call.progress
    [completion-no-values]=optional.modern.completion.complete
    [text-no-mime]=optional.modern.resources.read-text
    [binary-as-text]=optional.modern.resources.read-binary
    [template-literal]=optional.modern.resources.templates-read
    [prompt-no-role]=optional.modern.prompts.get-simple
    [prompt-args-ignored]=optional.modern.prompts.get-with-args
    [prompt-no-resource]=optional.modern.prompts.get-embedded-resource
    [prompt-no-image]=optional.modern.prompts.get-with-image
)

# reuse_caught FAULT: its verdict, "ok MESSAGE" or "bad MESSAGE", on stdout
reuse_caught() {
    local f=$1 t=${MODERN_REUSE[$1]} out="$TMP/reuse-$1" started rpid url
    spawn_server "$out.port" 0.1 "$out.out" "$out.srv" "$MOCK" mcp --http --fault "$f" --port-file "$out.port"
    started=$?
    rpid=$spawned_pid
    if [ "$started" -ne 0 ]; then
        echo "bad reuse $f: ananke-mock mcp --http did not start"
        return
    fi
    url="http://127.0.0.1:$(tr -d '[:space:]' <"$out.port")/mcp"
    "$ANANKE" comply --protocol mcp --spec 2026-07-28 --timeout-scale 0.4 -t "$t" --agent "$f=$url" \
        -r json:"$out.json" >/dev/null 2>"$out.err"
    stop_pids "$rpid"
    local st reqs unmet
    st=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .status' "$out.json" 2>/dev/null)
    reqs=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .requirements | sort | join(",")' "$out.json" 2>/dev/null)
    unmet=$(jq -r --arg id "$t" '[.agents[0].tests[] | select(.id == $id) | .requirements[]] as $r
        | [.agents[0].requirements | to_entries[] | select((.key | IN($r[])) and .value.status == "not_met") | .key]
        | sort | join(",")' "$out.json" 2>/dev/null)
    if [ "$st" = fail ] && [ -n "$reqs" ] && [ "$unmet" = "$reqs" ]; then
        echo "ok 2026-07-28: fault $f (http): $t FAIL, $reqs not_met"
    else
        echo "bad 2026-07-28: fault $f (http): $t is '$st' (want fail; requirements '$reqs', not_met '$unmet')"
    fi
}
reuse_jobs=()
for f in $(printf '%s\n' "${!MODERN_REUSE[@]}" | sort); do
    reuse_caught "$f" >"$TMP/reuse-$f.verdict" 2>&1 &
    reuse_jobs+=($!)
    if [ "${#reuse_jobs[@]}" -ge 3 ]; then
        wait "${reuse_jobs[0]}"
        reuse_jobs=("${reuse_jobs[@]:1}")
    fi
done
for j in "${reuse_jobs[@]}"; do wait "$j"; done
for f in $(printf '%s\n' "${!MODERN_REUSE[@]}" | sort); do
    read -r verdict msg <"$TMP/reuse-$f.verdict" || verdict=bad
    if [ "$verdict" = ok ]; then ok "$msg"; else bad "${msg:-reuse $f: no verdict}"; fi
done
