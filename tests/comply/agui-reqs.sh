# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/agui.sh (uses its TMP, ok, bad, and the JSON results
# of its sections 1 and 2): the AG-UI suite's requirement IDs.
#  - every test of compliance/agui names requirements, every requirement of
#    compliance/agui/requirements/1.1.json is cited by a test, and the run
#    judges them (spec 1.1, a requirements table per agent);
#  - on the good mock every requirement is met;
#  - each test cites exactly one requirement, and no two tests the same;
#  - on the broken mock (one fault per failing test) exactly the requirements
#    the failed tests cite are not_met, and every failing test cites some;
#  - each fault of the broken mock keyed to a test's request, alone on the
#    good mock, fails only that test and leaves only its requirement not_met;
#  - docs/comply.md's AG-UI requirement table is the suite's (generated here;
#    ANANKE_UPDATE_DOCS=1 rewrites it).

AGUI_SET=compliance/agui/requirements/1.1.json
untagged=$(for f in compliance/agui/*.jsont; do
    grep -q '"requirements": \["AGUI-' "$f" || basename "$f" .jsont
done)
[ -z "$untagged" ] && ok "agui: every test names its requirements" || bad "agui: tests without requirements: $untagged"
cited=$(grep -ho '"AGUI-[A-Z]*-[0-9]*"' compliance/agui/*.jsont | sort -u | tr -d '"')
uncited=$(jq -r '.requirements[].id' "$AGUI_SET" | sort | comm -23 - <(echo "$cited"))
[ -z "$uncited" ] && ok "agui: every requirement of $AGUI_SET is cited" || bad "agui: not cited: $uncited"
# one rule, one test, one fault: each test cites one requirement and no
# other test cites it, so the broken mock's fault for a test (keyed to that
# test's request) can leave only that requirement not_met
multi=$(for f in compliance/agui/*.jsont; do
    [ "$(jq '.requirements | length' "$f")" = 1 ] || basename "$f" .jsont
done)
[ -z "$multi" ] && ok "agui: every test cites exactly one requirement" || bad "agui: tests citing several: $multi"
twice=$(grep -ho '"AGUI-[A-Z]*-[0-9]*"' compliance/agui/*.jsont | sort | uniq -d | tr -d '"' | tr '\n' ' ')
[ -z "$twice" ] && ok "agui: no requirement is cited by two tests" || bad "agui: cited by several tests: $twice"

if [ -s "$TMP/mock.json" ]; then
    nreq=$(jq '.requirements | length' "$AGUI_SET")
    [ "$(jq -r .spec "$TMP/mock.json")" = 1.1 ] &&
        [ "$(jq '.agents[0].requirements | length' "$TMP/mock.json")" = "$nreq" ] &&
        ok "agui: the mock's run judges spec 1.1's $nreq requirements" ||
        bad "agui: spec $(jq -r .spec "$TMP/mock.json"), $(jq '.agents[0].requirements | length' "$TMP/mock.json") requirements"
    notmet=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status != "met") | .key] | join(" ")' \
        "$TMP/mock.json")
    [ -z "$notmet" ] && ok "agui: mock: every requirement is met" || bad "agui: mock: not met: $notmet"
    cov=$(jq -r '.agents[0].must_coverage | "\(.met)/\(.musts)"' "$TMP/mock.json")
    musts=$(jq '[.requirements[] | select(.level == "MUST")] | length' "$AGUI_SET")
    [ "$cov" = "$musts/$musts" ] && ok "agui: mock: MUST coverage $cov" || bad "agui: mock: MUST coverage $cov"
else
    bad "agui: no result of the good mock"
fi

if [ -s "$TMP/broken.json" ]; then
    j=$TMP/broken.json
    want=$(jq -r '[.agents[0].tests[] | select(.status == "fail") | .requirements[]] | unique | join(" ")' "$j")
    got=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status == "not_met") | .key] | sort | join(" ")' "$j")
    [ -n "$want" ] && [ "$want" = "$got" ] && ok "agui: broken: the failed tests' requirements not_met: $got" ||
        bad "agui: broken: cited by the failed tests '$want', not_met '$got'"
    # each failing test is caught by its own requirement: no failed test
    # shares its requirements with a passing one
    shared=$(jq -r '[.agents[0].tests[] | select(.status == "pass") | .requirements[]] as $p
        | [.agents[0].tests[] | select(.status == "fail") | .requirements[] | select(IN($p[]))] | unique | join(" ")' "$j")
    [ -z "$shared" ] && ok "agui: broken: no not_met requirement is also cited by a passing test" ||
        bad "agui: broken: requirements cited by failing and passing tests: $shared"
else
    bad "agui: no result of the broken mock"
fi

# Each fault alone. A rule of the broken mock headed by a comment naming a
# test ("  # required.x.y: ...", up to the next blank line) is that test's
# fault, keyed to its request: the good mock with only that rule put first
# (for required.input.not-json with `non_json: run` as well) must fail
# exactly that test and leave exactly its requirement not_met. The broken
# mock's leniency (no `input: strict`) is the one fault of two tests,
# required.input.missing-thread-id and required.input.wrong-type; its
# default rule (a stream labelled text/plain) is shared by the tests that
# fall through to it and is not in this check.
if [ -s "$TMP/mock.json" ]; then
    nfault=0 nalone=0
    for t in $(sed -n 's/^  # \(\(required\|optional\)\.[a-z.-]*\)[: ].*/\1/p' tests/comply/agui-broken.yaml) \
        lenient; do
        nfault=$((nfault + 1))
        awk -v t="$t" '
            $0 ~ "^  # " t "[: ]" { on = 1 }
            on && /^$/ { exit }
            on { print }' tests/comply/agui-broken.yaml >"$TMP/fault.yaml"
        want=$t mode='s/^//'
        case $t in
        required.input.not-json) mode='s/^input: strict$/input: strict\nnon_json: run/' ;;
        lenient) mode='/^input: strict$/d' want="required.input.missing-thread-id required.input.wrong-type" ;;
        esac
        awk -v f="$TMP/fault.yaml" '{ print } /^rules:$/ { while ((getline l < f) > 0) print l }' \
            tests/comply/agui-mock.yaml | sed -e "$mode" >"$TMP/one-fault.yaml"
        if ! serve "fault-$nfault" "$MOCK" agui --scenario "$TMP/one-fault.yaml" --port-file "$TMP/fault-$nfault.port"; then
            continue
        fi
        "$ANANKE" comply --protocol agui -j 8 --timeout-scale 0.2 --agent one="$URL" \
            -r json:"$TMP/one-fault.json" >/dev/null 2>&1
        stop_pids "${PIDS[-1]}"
        failed=$(jq -r '[.agents[0].tests[] | select(.status != "pass") | .id] | join(" ")' "$TMP/one-fault.json")
        notmet=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status != "met") | .key] | join(" ")' \
            "$TMP/one-fault.json")
        cites=$(for w in $want; do jq -r '.requirements[]' "compliance/agui/$w.jsont"; done | sort | tr '\n' ' ')
        if [ "$failed" = "$want" ] && [ "$notmet" = "${cites% }" ]; then
            nalone=$((nalone + 1))
        else
            bad "agui: the fault of $t alone: failed '$failed', not met '$notmet' (want '$want', '${cites% }')"
        fi
    done
    [ "$nfault" -ge 30 ] && [ "$nalone" = "$nfault" ] &&
        ok "agui: each of the $nfault faults alone fails only its test(s) and leaves only its requirement(s) not_met" ||
        bad "agui: $nalone of $nfault faults isolated"
fi

# docs/comply.md's table, from the suite
# shellcheck source=reqs-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/reqs-lib.sh"
reqs_doc_table "AG-UI" "$AGUI_SET" compliance/agui agui-requirements tests/comply/agui.sh
