#!/usr/bin/env bash
# Verdicts that cannot lie (docs/comply.md "Verdicts"), against
# `ananke-mock acp`:
#  1. a reply that arrived with the wrong content is said as such, on the
#     progress line too ("missing field 'error'"), never "not observed"; so
#     is a request of the server's (`ananke-mock mcp`: "sampling/createMessage
#     came, not as expected: missing field 'params.maxTokens'");
#  2. the cancel test against an agent that answers before session/cancel
#     leaves is NA with the reason, not a FAIL; one that answers after the
#     cancel without honouring it still FAILs.
#
#   ANANKE_BUILD=build tests/comply/verdicts.sh
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$HERE/../lib.sh"
ANANKE=$tests_build/ananke MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0 suite=comply-verdicts # ok, bad, finish: tests/lib.sh
cd "$tests_root"
need_jq
[ -x "$MOCK" ] || broken "$MOCK not built (make build)"

# 1. the mock answers an unknown method with a result: the reply came
"$ANANKE" comply --timeout-scale 0.2 -t required.error.method-not-found \
    --agent mock="$MOCK acp --fault wrong-unknown-method" -r json:"$TMP/w.json" >"$TMP/w.md" 2>"$TMP/w.err"
grep -q "^comply: mock required.error.method-not-found FAIL (.*): missing field 'error'" "$TMP/w.err" &&
    ok "wrong reply: the progress line says what differs" ||
    bad "wrong reply: progress: $(grep method-not-found "$TMP/w.err")"
jq -e '.agents[0].tests[0].unmet[0].message | startswith("missing field '"'"'error'"'"'")' "$TMP/w.json" >/dev/null &&
    ok "wrong reply: the json unmet message too" || bad "wrong reply: $(jq -c '.agents[0].tests[0].unmet[0]' "$TMP/w.json")"
grep -q 'not observed' "$TMP/w.md" "$TMP/w.err" && bad "wrong reply: 'not observed' is still said" ||
    ok "wrong reply: never 'not observed'"
# a request of the server's that came with the wrong content (sampling/createMessage
# without maxTokens): said as such too, by its method and first difference
"$ANANKE" comply --protocol mcp --spec 2025-11-25 --timeout-scale 0.2 -t optional.tools.call.sampling \
    --agent mock="$MOCK mcp --fault sampling-no-max-tokens" -r json:"$TMP/s.json" >"$TMP/s.md" 2>"$TMP/s.err"
grep -q "^comply: mock optional.tools.call.sampling FAIL (.*): sampling/createMessage came, not as expected: missing field 'params.maxTokens'$" "$TMP/s.err" &&
    ok "wrong request: the progress line names its method and what differs" ||
    bad "wrong request: progress: $(grep tools.call.sampling "$TMP/s.err")"
grep -q 'not observed' "$TMP/s.md" "$TMP/s.err" "$TMP/s.json" && bad "wrong request: 'not observed' is still said" ||
    ok "wrong request: never 'not observed'"
# a reply that never came is still "not observed"
"$ANANKE" comply --timeout-scale 0.2 -t required.prompt.cancel \
    --agent mock="$MOCK acp --fault exit-mid-turn" >/dev/null 2>"$TMP/x.err"
grep -q '^comply: mock required.prompt.cancel FAIL (.*): not observed before the agent closed' "$TMP/x.err" &&
    ok "no reply: not observed" || bad "no reply: $(grep prompt.cancel "$TMP/x.err")"

# 2. the cancel test with a prompt the mock answers at once (before the
#    300 ms delay and the cancel): NA, with why
jq '.steps[1].send.params.prompt[0].text = "hi"' compliance/acp/required.prompt.cancel.jsont \
    >"$TMP/quick.cancel.jsont"
"$ANANKE" comply --timeout-scale 0.2 --agent mock="$MOCK acp" "$TMP/quick.cancel.jsont" \
    -r json:"$TMP/q.json" >"$TMP/q.md" 2>"$TMP/q.err"
rc=$?
[ "$rc" -eq 0 ] && ok "answered before the cancel: exit 0" || bad "answered before the cancel: exit $rc"
jq -e '.agents[0].tests[0] | .status == "na" and (.na_reason | test("^timing the agent controls: it answered before session/cancel was sent \\(result.stopReason: expected /\\^cancelled\\$/, got \"end_turn\"\\)"))' \
    "$TMP/q.json" >/dev/null && ok "answered before the cancel: na, the reason names the race" ||
    bad "answered before the cancel: $(jq -c '.agents[0].tests[0] | [.status, .na_reason, .unmet[0].message]' "$TMP/q.json")"
grep -q 'timing the agent controls' "$TMP/q.md" && ok "answered before the cancel: the report says why" ||
    bad "answered before the cancel: not in the report"
# after the cancel, not honoured (ignore-cancel: end_turn 2 s after the prompt): FAIL
"$ANANKE" comply --timeout-scale 0.5 -t required.prompt.cancel \
    --agent mock="$MOCK acp --fault ignore-cancel" -r json:"$TMP/i.json" >/dev/null 2>"$TMP/i.err"
rc=$?
[ "$rc" -eq 1 ] && jq -e '.agents[0].tests[0].status == "fail"' "$TMP/i.json" >/dev/null &&
    grep -q 'required.prompt.cancel FAIL (.*): result.stopReason: expected /^cancelled$/, got "end_turn"' "$TMP/i.err" &&
    ok "answered after the cancel, not cancelled: FAIL, the progress line says why" ||
    bad "ignore-cancel: exit $rc, $(grep prompt.cancel "$TMP/i.err")"

finish
