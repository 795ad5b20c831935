#!/usr/bin/env bash
# ananke comply's MCP verdicts against the official MCP conformance kit's
# (npm @modelcontextprotocol/conformance, installed in tests/mcp-kit by
# scripts/setup.sh), scenario by scenario, on the same servers over
# Streamable HTTP (the kit speaks no stdio):
#  - @modelcontextprotocol/server-everything (`streamableHttp`);
#  - ananke-mock mcp --http;
#  - ananke-mock mcp --http --version 1999-01-01 (a fault: a version
#    nobody speaks);
#  - ananke-mock mcp --http --fault NAME, for each fault of the mock, on
#    the one scenario whose rule it breaks (FAULT_SCENARIO).
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
# shellcheck source-path=SCRIPTDIR source=mcp-kit-lib.sh
. "$HERE/mcp-kit-lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
kit_node_init
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
    [completion-complete]=optional.completion.complete
    [tools-list]=required.tools.list
    [tools-call-simple-text]=optional.tools.call.simple-text
    [tools-call-image]=optional.tools.call.image
    [tools-call-audio]=optional.tools.call.audio
    [tools-call-embedded-resource]=optional.tools.call.embedded-resource
    [tools-call-mixed-content]=optional.tools.call.mixed-content
    [tools-call-with-logging]=optional.tools.call.logging
    [tools-call-error]=optional.tools.call.error
    [tools-call-with-progress]=optional.tools.call.progress
    [resources-list]=required.resources.list
    [resources-read-text]=optional.resources.read-text
    [resources-read-binary]=optional.resources.read-binary
    [resources-templates-read]=optional.resources.templates-read
    [resources-subscribe]=optional.resources.subscribe
    [resources-unsubscribe]=optional.resources.unsubscribe
    [prompts-list]=required.prompts.list
    [prompts-get-simple]=optional.prompts.get-simple
    [prompts-get-with-args]=optional.prompts.get-with-args
    [prompts-get-embedded-resource]=optional.prompts.get-embedded-resource
    [prompts-get-with-image]=optional.prompts.get-with-image
    [dns-rebinding-protection]=required.http.origin.foreign
    [server-sse-multiple-streams]=required.http.multiple-streams
    [tools-call-sampling]=optional.tools.call.sampling
    [tools-call-elicitation]=optional.tools.call.elicitation
    [elicitation-sep1034-defaults]=optional.elicitation.defaults
    [elicitation-sep1330-enums]=optional.elicitation.enums
)
# ananke-mock mcp --fault NAME -> the kit scenario whose rule it breaks (the
# fault's ananke test is that scenario's pair: tests/comply/mcp-faults.sh)
declare -A FAULT_SCENARIO=(
    [text-empty]=tools-call-simple-text
    [image-no-mime]=tools-call-image
    [audio-no-data]=tools-call-audio
    [embedded-no-resource]=tools-call-embedded-resource
    [mixed-text-only]=tools-call-mixed-content
    [no-log]=tools-call-with-logging
    [error-not-flagged]=tools-call-error
    [no-progress]=tools-call-with-progress
    [completion-no-values]=completion-complete
    [text-no-mime]=resources-read-text
    [binary-as-text]=resources-read-binary
    [template-literal]=resources-templates-read
    [subscribe-refused]=resources-subscribe
    [unsubscribe-refused]=resources-unsubscribe
    [prompt-no-role]=prompts-get-simple
    [prompt-args-ignored]=prompts-get-with-args
    [prompt-no-resource]=prompts-get-embedded-resource
    [prompt-no-image]=prompts-get-with-image
    [log-level-refused]=logging-set-level
    [ping-not-empty]=ping
    [origin-ignored]=dns-rebinding-protection
    [one-stream]=server-sse-multiple-streams
    [sampling-no-max-tokens]=tools-call-sampling
    [elicit-no-schema]=tools-call-elicitation
    [elicit-no-defaults]=elicitation-sep1034-defaults
    [elicit-enum-untitled]=elicitation-sep1330-enums
)
# SERVER/SCENARIO -> why the verdicts differ, for a disagreement that is
# understood (over HTTP both clients send the version the server chose,
# which the version-fault mock then refuses with HTTP 400, so both fail
# every scenario there)
declare -A DISAGREE=(
    [everything/tools-call-simple-text]="server-everything has no test_simple_text: the kit takes its isError 'Tool test_simple_text not found' result for a text answer; ananke wants the fixture's text"
    [everything/tools-call-error]="server-everything has no test_error_handling: the kit takes its isError 'Tool ... not found' result for the tool's error; ananke wants the fixture's message"
)

KIT_ARGS=()

table="| server | kit scenario | kit | ananke test | ananke | |\n|---|---|---|---|---|---|\n"
# compare NAME KIT_URL ANANKE_URL [SCENARIO...]: ananke's verdicts (the
# suite, or the tests paired with the scenarios given) against the kit's,
# scenario by scenario; the kit runs its whole suite once, or the one
# scenario given (kit_run). The two run at once, each against its own server
# where the server is the mock: what one's requests change is not the
# other's to see.
compare() {
    local name=$1 url=$2 aurl=$3 s
    shift 3
    local scenarios=("$@") targs=()
    [ ${#scenarios[@]} -gt 0 ] || mapfile -t scenarios < <(printf '%s\n' "${!PAIRS[@]}" | sort)
    [ $# -eq 0 ] || for s in "${scenarios[@]}"; do targs+=(-t "${PAIRS[$s]}"); done
    "$ANANKE" comply --protocol mcp --spec 2025-11-25 -j 4 --timeout-scale 0.5 --agent "$name=$aurl" "${targs[@]}" \
        -r json:"$TMP/$name.json" >/dev/null 2>"$TMP/$name.err" &
    local ananke_pid=$!
    kit_run "$url" "$TMP/kit-$name" "$@"
    wait "$ananke_pid"
    for s in "${scenarios[@]}"; do
        local t=${PAIRS[$s]} k a agree mark
        k=$(kit_verdict "$TMP/kit-$name" "$s")
        a=$(jq -r --arg id "$t" '.agents[0].tests[] | select(.id == $id) | .status' "$TMP/$name.json")
        agree=no
        { [ "$k" = SUCCESS ] && [ "$a" = pass ]; } && agree=yes
        { [ "$k" = FAILURE ] && { [ "$a" = fail ] || [ "$a" = na ]; }; } && agree=yes
        local why=${DISAGREE[$name/$s]:-}
        if [ "$agree" = yes ] && [ -z "$why" ]; then
            ok "$name: $s: kit $k, ananke $t $a"
            mark=agree
            agreed=$((agreed + 1))
        elif [ "$agree" = no ] && [ -n "$why" ]; then
            ok "$name: $s: kit $k, ananke $t $a (a known disagreement: $why)"
            mark="differ: $why"
            differed=$((differed + 1))
        elif [ -n "$why" ]; then
            bad "$name: $s: now agree (kit $k, ananke $a): remove it from DISAGREE"
            mark="STALE"
        else
            bad "$name: $s: kit $k, ananke $t $a: the verdicts disagree"
            tail -n 5 "$TMP/kit-$name.log" | sed 's/^/    /'
            mark="DISAGREE"
        fi
        table+="| $name | \`$s\` | $k | \`$t\` | $a | $mark |\n"
    done
}
agreed=0 differed=0

# server-everything over Streamable HTTP, on a free port
kit_everything_http
compare everything "$url" "$url"

# ananke-mock mcp --http, then with the version fault
kit_mock mock-ananke
ananke_url=$url
kit_mock mock
compare mock "$url" "$ananke_url"
kit_mock version-fault-ananke --version 1999-01-01
ananke_url=$url
kit_mock version-fault --version 1999-01-01
compare version-fault "$url" "$ananke_url" logging-set-level ping prompts-list resources-list server-initialize tools-list
# each fault of the mock against the one scenario whose rule it breaks
for f in $(printf '%s\n' "${!FAULT_SCENARIO[@]}" | sort); do
    kit_mock "fault-$f-ananke" --fault "$f"
    ananke_url=$url
    kit_mock "fault-$f" --fault "$f"
    compare "fault-$f" "$url" "$ananke_url" "${FAULT_SCENARIO[$f]}"
    stop_pids "${pids[-2]}" "${pids[-1]}"
done

printf '%b' "$table"
echo "agreement: $agreed verdicts agree, $differed known disagreements"
finish
