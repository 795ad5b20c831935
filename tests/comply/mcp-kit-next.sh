#!/usr/bin/env bash
# ananke comply's MCP 2026-07-28 verdicts (--spec 2026-07-28) against the
# official MCP conformance kit's pre-release that knows that revision (npm
# @modelcontextprotocol/conformance 0.2.0-alpha.12, installed in
# tests/mcp-kit-next by scripts/setup.sh; run with --spec-version
# 2026-07-28), on the same servers over Streamable HTTP:
#  - @modelcontextprotocol/server-everything (`streamableHttp`: it speaks
#    2025-11-25 only, so the kit fails it and ananke's modern tests are NA,
#    negotiated down);
#  - ananke-mock mcp --http (it speaks 2026-07-28 to a request whose _meta
#    names it);
#  - ananke-mock mcp --http --fault NAME, for each 2026-07-28 fault of the
#    mock, on the one kit scenario whose checks it breaks.
# The kit's 2026-07-28 scenarios are wide (server-stateless runs some 30
# checks: _meta, discovery, version and header errors, removed methods,
# -32021, subscriptions/listen...), so a pair here is one ananke test and
# the kit checks (by id) that check the same thing within one scenario
# (PAIRS below): kit SUCCESS (every such check SUCCESS) <=> ananke pass; kit
# FAILURE <=> ananke fail, or na where the server speaks no 2026-07-28 (the
# kit has no NA). Known disagreements go in DISAGREE with why (stale
# otherwise). The agreement table is printed (docs/comply.md "The official
# MCP kit and 2026-07-28"). The scenarios 2026-07-28 keeps of 2025-11-25
# (KEPT: tool calls, resources, prompts, completion, progress) pair with
# the *.modern.* test of the same feature, check for check; the 14
# input-required-result-* scenarios (MRTR) with
# optional.modern.tools.call.input-required and the *.mrtr.* tests.
# About 40 s: the kit runs its whole suite once per server (kit_run).
#
#   ANANKE_BUILD=build tests/comply/mcp-kit-next.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=mcp-kit-lib.sh
. "$HERE/mcp-kit-lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
kit_node_init
pids=()
trap 'stop_pids "${pids[@]}"; rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-mcp-kit-next # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_node "the MCP kit and server-everything"
need_jq
KIT_JS=$tests_root/tests/mcp-kit-next/node_modules/@modelcontextprotocol/conformance/dist/index.js
EVERYTHING=$tests_root/tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
[ -f "$KIT_JS" ] || broken "the MCP kit 0.2.0-alpha.12 is missing (run scripts/setup.sh: npm ci in tests/mcp-kit-next)"
[ -f "$EVERYTHING" ] || broken "server-everything is missing (run scripts/setup.sh: npm ci in tests/mcp)"

# "kit scenario|regex of its check ids" -> the ananke test that checks the same thing
declare -A PAIRS=(
    ["server-stateless|^sep-2575-server-implements-discover$"]=required.modern.discover
    ["server-stateless|^sep-2575-(request-meta-invalid-missing-|http-server-meta-invalid-400)"]=required.modern.meta-required
    ["server-stateless|^sep-2575-(server|http-server)-unsupported-version-"]=required.modern.version-unsupported
    ["server-stateless|^sep-2575-http-server-header-mismatch-400$"]=required.modern.header-mismatch
    ["server-stateless|^sep-2575-request-meta-client-info-optional$"]=required.modern.meta-client-info-optional
    ["server-stateless|^sep-2575-server-identifies-in-result-meta$"]=optional.modern.discover.server-info
    ["http-header-validation|^sep-2243-server-reject-"]=required.modern.header-mismatch
    ["server-stateless|^sep-2575-http-server-method-not-found-404"]=required.modern.removed-method
    ["server-stateless|^sep-2575-server-sends-subscription-ack$"]=required.modern.subscriptions.ack
    ["server-stateless|^sep-2575-server-tags-subscription-id$"]=required.modern.subscriptions.tagged
    ["server-stateless|^sep-2575-server-honors-notification-filter$"]=required.modern.subscriptions.filter
    ["server-stateless|^sep-2575-server-sends-tools-list-changed-on-subscription$"]=optional.modern.subscriptions.tools-list-changed
    ["server-stateless|^sep-2575-server-sends-prompts-list-changed-on-subscription$"]=optional.modern.subscriptions.prompts-list-changed
    ["server-stateless|^sep-2575-(server-rejects-undeclared-capability|missing-capability-http-400)$"]=required.modern.missing-capability
    ["server-stateless|^sep-2575-server-no-log-without-loglevel$"]=required.modern.logging.no-level
    ["server-stateless|^sep-2575-discover-capabilities-match-handlers$"]=required.modern.discover.tools-declared
    ["server-stateless|^sep-2575-server-declares-prompts-in-discover$"]=required.modern.discover.prompts-declared
    ["server-stateless|^sep-2575-http-server-no-independent-requests-on-stream$"]=required.modern.no-requests-on-stream
    ["server-stateless|^sep-2575-http-server-error-jsonrpc-id$"]=required.modern.error-id
    ["dns-rebinding-protection|^localhost-host-"]=required.modern.origin
    ["tools-list|."]=required.modern.tools.list
    ["caching|."]=required.modern.caching
    ["sep-2164-resource-not-found|^sep-2164-no-empty-contents$"]=required.modern.resource-not-found
    ["server-sse-multiple-streams|."]=required.modern.multiple-streams
    ["input-required-result-basic-elicitation|^sep-2322-elicitation-"]=optional.modern.tools.call.input-required
    ["input-required-result-basic-sampling|^sep-2322-sampling-"]=optional.modern.mrtr.sampling
    ["input-required-result-basic-list-roots|^sep-2322-list-roots-"]=optional.modern.mrtr.list-roots
    ["input-required-result-request-state|^sep-2322-request-state-"]=optional.modern.mrtr.request-state
    ["input-required-result-multiple-input-requests|^sep-2322-multiple-inputs-"]=optional.modern.mrtr.multiple-inputs
    ["input-required-result-multi-round|^sep-2322-multi-round-"]=optional.modern.mrtr.multi-round
    ["input-required-result-missing-input-response|^sep-2322-missing-response-rerequests$"]=optional.modern.mrtr.missing-input
    ["input-required-result-non-tool-request|^sep-2322-non-tool-"]=optional.modern.mrtr.prompt
    ["input-required-result-result-type|^sep-2322-result-type-included$"]=optional.modern.mrtr.result-type
    ["input-required-result-unsupported-methods|^sep-2322-not-on-unsupported-requests$"]=required.modern.mrtr.not-on-lists
    ["input-required-result-tampered-state|^sep-2322-reject-tampered-state$"]=optional.modern.mrtr.tampered-state
    ["input-required-result-capability-check|^sep-2322-respect-client-capabilities$"]=optional.modern.mrtr.capabilities
    ["input-required-result-ignore-extra-params|^sep-2322-ignore-unexpected-params$"]=optional.modern.mrtr.extra-input
    ["input-required-result-validate-input|^sep-2322-(validate-input-responses|error-on-protocol-error)$"]=optional.modern.mrtr.validate-input
    # what 2026-07-28 keeps of 2025-11-25: the same scenario, each check of it
    ["tools-call-simple-text|."]=optional.modern.tools.call.simple-text
    ["tools-call-image|."]=optional.modern.tools.call.image
    ["tools-call-audio|."]=optional.modern.tools.call.audio
    ["tools-call-embedded-resource|."]=optional.modern.tools.call.embedded-resource
    ["tools-call-mixed-content|."]=optional.modern.tools.call.mixed-content
    ["tools-call-error|."]=optional.modern.tools.call.error
    ["tools-call-with-progress|."]=optional.modern.tools.call.progress
    ["completion-complete|."]=optional.modern.completion.complete
    ["resources-list|."]=required.modern.resources.list
    ["resources-read-text|."]=optional.modern.resources.read-text
    ["resources-read-binary|."]=optional.modern.resources.read-binary
    ["resources-templates-read|."]=optional.modern.resources.templates-read
    ["prompts-list|."]=required.modern.prompts.list
    ["prompts-get-simple|."]=optional.modern.prompts.get-simple
    ["prompts-get-with-args|."]=optional.modern.prompts.get-with-args
    ["prompts-get-embedded-resource|."]=optional.modern.prompts.get-embedded-resource
    ["prompts-get-with-image|."]=optional.modern.prompts.get-with-image
)
# the kit's input-required (MRTR) scenarios of the pairs above
MRTR="input-required-result-basic-elicitation input-required-result-basic-sampling input-required-result-basic-list-roots
    input-required-result-request-state input-required-result-multiple-input-requests input-required-result-multi-round
    input-required-result-missing-input-response input-required-result-non-tool-request input-required-result-result-type
    input-required-result-unsupported-methods input-required-result-tampered-state input-required-result-capability-check
    input-required-result-ignore-extra-params input-required-result-validate-input"
# the scenarios of the pairs above that keep 2025-11-25's features
KEPT="tools-call-simple-text tools-call-image tools-call-audio tools-call-embedded-resource tools-call-mixed-content
    tools-call-error tools-call-with-progress completion-complete resources-list resources-read-text resources-read-binary
    resources-templates-read prompts-list prompts-get-simple prompts-get-with-args prompts-get-embedded-resource prompts-get-with-image"
# ananke-mock mcp --fault NAME -> the kit scenario whose checks it breaks
declare -A FAULT_SCENARIO=(
    [discover-no-versions]=server-stateless
    [meta-not-required]=server-stateless
    [version-any]=server-stateless
    [headers-unchecked]="server-stateless http-header-validation"
    [client-info-required]=server-stateless
    [no-server-info]=server-stateless
    [removed-served]=server-stateless
    [capability-unchecked]=server-stateless
    [listen-refused]=server-stateless
    [listen-no-ack]=server-stateless
    [listen-untagged]=server-stateless
    [listen-unfiltered]=server-stateless
    [list-changed-silent]=server-stateless
    [log-without-level]=server-stateless
    [discover-caps-missing]=server-stateless
    [request-on-stream]=server-stateless
    [error-id-null]=server-stateless
    [origin-ignored]=dns-rebinding-protection
    [one-stream]=server-sse-multiple-streams
    [no-result-type]="tools-list input-required-result-result-type"
    [no-cache-hints]=caching
    [unknown-resource-empty]=sep-2164-resource-not-found
    [text-empty]=tools-call-simple-text
    [image-no-mime]=tools-call-image
    [audio-no-data]=tools-call-audio
    [embedded-no-resource]=tools-call-embedded-resource
    [mixed-text-only]=tools-call-mixed-content
    [error-not-flagged]=tools-call-error
    [no-progress]=tools-call-with-progress
    [completion-no-values]=completion-complete
    [text-no-mime]=resources-read-text
    [binary-as-text]=resources-read-binary
    [template-literal]=resources-templates-read
    [prompt-no-role]=prompts-get-simple
    [prompt-args-ignored]=prompts-get-with-args
    [prompt-no-resource]=prompts-get-embedded-resource
    [prompt-no-image]=prompts-get-with-image
    [resource-no-name]=resources-list
    [prompt-no-name]=prompts-list
    [input-ignored]=input-required-result-basic-elicitation
    [sampling-ignored]=input-required-result-basic-sampling
    [roots-ignored]=input-required-result-basic-list-roots
    [state-ignored]=input-required-result-request-state
    [inputs-ignored]=input-required-result-multiple-input-requests
    [round-state-kept]=input-required-result-multi-round
    [prompt-input-ignored]=input-required-result-non-tool-request
    [state-unchecked]=input-required-result-tampered-state
    [capabilities-ignored]=input-required-result-capability-check
    [list-input-required]=input-required-result-unsupported-methods
    [missing-input-error]=input-required-result-missing-input-response
    [extra-input-refused]=input-required-result-ignore-extra-params
    [input-unvalidated]=input-required-result-validate-input
)
# SERVER/PAIR -> why the verdicts differ, for a disagreement that is understood
declare -A DISAGREE=(
    ["everything/sep-2164-resource-not-found|^sep-2164-no-empty-contents$"]="server-everything answers every 2026-07-28 request 400 'Server not initialized': an error, so no empty contents, which the kit's check takes for a pass; ananke's test is NA, the server speaking no 2026-07-28"
    ["everything/input-required-result-unsupported-methods|^sep-2322-not-on-unsupported-requests$"]="server-everything answers every 2026-07-28 request 400 'Server not initialized': no result, so none input_required, which the kit's check takes for a pass; ananke's test is NA, the server speaking no 2026-07-28"
    ["everything/input-required-result-validate-input|^sep-2322-(validate-input-responses|error-on-protocol-error)$"]="server-everything answers every 2026-07-28 request 400 'Server not initialized': an error, never a complete result, which the kit's checks take for a pass; ananke's test is NA, the server speaking no 2026-07-28"
    ["everything/server-stateless|^sep-2575-server-honors-notification-filter$"]="server-everything answers every 2026-07-28 request 400 'Server not initialized', subscriptions/listen included: an answer without tools/list_changed, which the kit's check takes for a pass; ananke's test is NA, the server speaking no 2026-07-28"
    ["fault-discover-no-versions/server-stateless|^sep-2575-(server|http-server)-unsupported-version-"]="the kit also wants -32022's data.supported to be among server/discover's supportedVersions (none there under this fault); ananke's test judges the -32022 answer alone"
)

KIT_ARGS=(--spec-version 2026-07-28)

table="| server | kit scenario: checks | kit | ananke test | ananke | |\n|---|---|---|---|---|---|\n"
# compare NAME KIT_URL ANANKE_URL SCENARIO...: ananke's 2026-07-28 verdicts
# against the kit's on the pairs of the scenarios given; the kit runs its
# whole suite once, or the one or two scenarios given (kit_run). The two run
# at once, each against its own server where the server is the mock: a
# subscription of one would see the other's list changes (under the fault
# listen-unfiltered, whatever it asked for).
compare() {
    local name=$1 url=$2 aurl=$3 s p
    shift 3
    local scenarios=("$@") targs=()
    for p in $(printf '%s\n' "${!PAIRS[@]}" | sort); do
        for s in "${scenarios[@]}"; do [ "${p%%|*}" = "$s" ] && targs+=(-t "${PAIRS[$p]}"); done
    done
    "$ANANKE" comply --protocol mcp --spec 2026-07-28 -j 4 --timeout-scale 0.5 --agent "$name=$aurl" \
        "${targs[@]}" -r json:"$TMP/$name.json" >/dev/null 2>"$TMP/$name.err" &
    local ananke_pid=$!
    kit_run "$url" "$TMP/kit-$name" "${scenarios[@]}"
    wait "$ananke_pid"
    while IFS= read -r p; do
        s=${p%%|*}
        case " ${scenarios[*]} " in *" $s "*) ;; *) continue ;; esac
        local t=${PAIRS[$p]} k a agree=no mark why
        k=$(kit_verdict "$TMP/kit-$name" "$s" "${p#*|}")
        a=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .status' "$TMP/$name.json")
        { [ "$k" = SUCCESS ] && [ "$a" = pass ]; } && agree=yes
        { [ "$k" = FAILURE ] && { [ "$a" = fail ] || [ "$a" = na ]; }; } && agree=yes
        why=${DISAGREE[$name/$p]:-}
        if [ "$agree" = yes ] && [ -z "$why" ]; then
            ok "$name: $s ${p#*|}: kit $k, ananke $t $a"
            mark=agree agreed=$((agreed + 1))
        elif [ "$agree" = no ] && [ -n "$why" ]; then
            ok "$name: $s ${p#*|}: kit $k, ananke $t $a (a known disagreement: $why)"
            mark="differ: $why" differed=$((differed + 1))
        elif [ -n "$why" ]; then
            bad "$name: $s ${p#*|}: now agree (kit $k, ananke $a): remove it from DISAGREE"
            mark=STALE
        else
            bad "$name: $s ${p#*|}: kit $k, ananke $t $a: the verdicts disagree"
            tail -n 5 "$TMP/kit-$name.log" | sed 's/^/    /'
            mark=DISAGREE
        fi
        table+="| $name | \`$s\`: \`${p#*|}\` | $k | \`$t\` | $a | $mark |\n"
    done < <(printf '%s\n' "${!PAIRS[@]}" | sort)
}
agreed=0 differed=0
t0=$SECONDS

# server-everything over Streamable HTTP, on a free port
kit_everything_http
# shellcheck disable=SC2086 # MRTR and KEPT are lists of scenarios
compare everything "$url" "$url" server-stateless http-header-validation dns-rebinding-protection tools-list caching sep-2164-resource-not-found \
    server-sse-multiple-streams $MRTR $KEPT

kit_mock mock-ananke
ananke_url=$url
kit_mock mock
# shellcheck disable=SC2086 # MRTR and KEPT are lists of scenarios
compare mock "$url" "$ananke_url" server-stateless http-header-validation dns-rebinding-protection tools-list caching sep-2164-resource-not-found \
    server-sse-multiple-streams $MRTR $KEPT
# the faults of the mock the kit's 2026-07-28 scenarios see (those of
# tests/comply/mcp-faults.sh's MODERN_FAULTS a kit scenario checks,
# origin-ignored, and mcp-modern-reuse.sh's faults of the kept features)
for f in $(printf '%s\n' "${!FAULT_SCENARIO[@]}" | sort); do
    kit_mock "fault-$f-ananke" --fault "$f"
    ananke_url=$url
    kit_mock "fault-$f" --fault "$f"
    # shellcheck disable=SC2086 # a fault may break the checks of two scenarios
    compare "fault-$f" "$url" "$ananke_url" ${FAULT_SCENARIO[$f]}
    stop_pids "${pids[-2]}" "${pids[-1]}"
done
# the faults are each caught by the kit too: no pair of a fault's scenario passes on it
for f in "${!FAULT_SCENARIO[@]}"; do
    printf '%b' "$table" | grep -q "^| fault-$f | .* | FAILURE | .* | fail | agree |$" &&
        ok "fault $f: the kit and ananke both fail it" || bad "fault $f: no pair where both fail it"
done

printf '%b' "$table"
echo "agreement: $agreed verdicts agree, $differed known disagreements ($((SECONDS - t0)) s)"
finish
