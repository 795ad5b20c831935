# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/mcp-modern.sh (uses mcp.sh's ANANKE, MOCK, TMP,
# ok, bad, spawn_server, stop_pids): MCP 2026-07-28 keeps what 2025-11-25
# says of tool content, resources, prompts, completion and progress; the
# mock's faults of those (mcp-faults.sh's FAULTS, judged there at
# 2025-11-25) are caught at 2026-07-28 too, each by the *.modern.* test of
# its feature, over stdio and over Streamable HTTP (mcp-fault-lib.sh's
# fault_loop, sourced by mcp-faults.sh). The test FAILs and the
# requirements it cites are not_met; on the plain mock it PASSes
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
    [one-stream]=required.modern.multiple-streams
)

reuse_test() { echo "${MODERN_REUSE[$1]}"; }
reuse_spec() { echo 2026-07-28; }
# shellcheck disable=SC2046
fault_loop reuse_test reuse_spec $(printf '%s\n' "${!MODERN_REUSE[@]}" | sort)
