# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/mcp.sh (uses its ANANKE, MOCK, TMP, ok, bad,
# status, spawn_server, stop_pids): every fault of ananke-mock mcp's
# MCP_FAULT_MAP (src/mock/mcp_server.h) is caught by the test of
# compliance/mcp that cites the requirement it breaks, over stdio and over
# Streamable HTTP: that test FAILs on the faulty mock (it PASSes on the
# plain one: section 6 of mcp.sh); the JSON report says the requirement is
# not_met. The HTTP faults (HTTP_FAULTS: session, header, Origin and 202
# rules of Streamable HTTP) are caught over HTTP; over stdio their test is
# NA. The 2026-07-28 faults (MODERN_FAULTS), judged with --spec
# 2026-07-28, are caught over both, but for those of a test of HTTP only
# (headers-unchecked: NA over stdio). The loop is mcp-fault-lib.sh's.

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
    [sampling-no-max-tokens]=optional.tools.call.sampling
    [elicit-no-schema]=optional.tools.call.elicitation
    [elicit-no-defaults]=optional.elicitation.defaults
    [elicit-enum-untitled]=optional.elicitation.enums
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
    [one-stream]=required.http.multiple-streams
)
# the faults of MCP 2026-07-28 (stateless; judged with --spec 2026-07-28)
# -> the test that must catch it
declare -A MODERN_FAULTS=(
    [discover-no-versions]=required.modern.discover
    [meta-not-required]=required.modern.meta-required
    [version-any]=required.modern.version-unsupported
    [headers-unchecked]=required.modern.header-mismatch
    [client-info-required]=required.modern.meta-client-info-optional
    [no-server-info]=optional.modern.discover.server-info
    [removed-served]=required.modern.removed-method
    [no-result-type]=required.modern.tools.list
    [no-cache-hints]=required.modern.caching
    [unknown-resource-empty]=required.modern.resource-not-found
    [unknown-method-answered]=required.modern.error.method-not-found
    [unknown-tool-answered]=required.modern.tools.call.unknown-tool
    [unknown-prompt-answered]=required.modern.error.invalid-params
    [resource-no-name]=required.modern.resources.list
    [prompt-no-name]=required.modern.prompts.list
    [input-ignored]=optional.modern.tools.call.input-required
    [sampling-ignored]=optional.modern.mrtr.sampling
    [roots-ignored]=optional.modern.mrtr.list-roots
    [state-ignored]=optional.modern.mrtr.request-state
    [inputs-ignored]=optional.modern.mrtr.multiple-inputs
    [round-state-kept]=optional.modern.mrtr.multi-round
    [prompt-input-ignored]=optional.modern.mrtr.prompt
    [state-unchecked]=optional.modern.mrtr.tampered-state
    [capabilities-ignored]=optional.modern.mrtr.capabilities
    [list-input-required]=required.modern.mrtr.not-on-lists
    [missing-input-error]=optional.modern.mrtr.missing-input
    [extra-input-refused]=optional.modern.mrtr.extra-input
    [input-unvalidated]=optional.modern.mrtr.validate-input
    [capability-unchecked]=required.modern.missing-capability
    [listen-refused]=required.modern.subscriptions.served
    [listen-no-ack]=required.modern.subscriptions.ack
    [listen-untagged]=required.modern.subscriptions.tagged
    [listen-unfiltered]=required.modern.subscriptions.filter
    [list-changed-silent]=optional.modern.subscriptions.tools-list-changed
    [log-without-level]=required.modern.logging.no-level
    [discover-caps-missing]=required.modern.discover.tools-declared
    [request-on-stream]=required.modern.no-requests-on-stream
    [error-id-null]=required.modern.error-id
)

# the mock's --help lists exactly these faults
listed=$("$MOCK" mcp --help | sed -n '/^faults/,/^$/p' | awk 'NF && !/^faults/ {print $1}' | sort)
known=$(printf '%s\n' "${!FAULTS[@]}" "${!HTTP_FAULTS[@]}" "${!MODERN_FAULTS[@]}" | sort)
[ "$listed" = "$known" ] && ok "faults: every fault of the mock has its test" ||
    bad "faults: the mock's list and FAULTS + HTTP_FAULTS + MODERN_FAULTS differ: $(diff <(echo "$listed") <(echo "$known") | tr '\n' ' ')"

# shellcheck source=mcp-fault-lib.sh
. "$HERE/mcp-fault-lib.sh"
faults_test() { echo "${FAULTS[$1]:-${HTTP_FAULTS[$1]:-${MODERN_FAULTS[$1]}}}"; }
faults_spec() { if [ -n "${MODERN_FAULTS[$1]:-}" ]; then echo 2026-07-28; else echo 2025-11-25; fi; }
# (waits name the fault jobs: mcp.sh's servers are children of this shell too)
# shellcheck disable=SC2046
fault_loop faults_test faults_spec $(printf '%s\n' "${!FAULTS[@]}" "${!HTTP_FAULTS[@]}" "${!MODERN_FAULTS[@]}" | sort)
