# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/run.sh (uses its ANANKE, TMP, ok, bad, and the
# JSON results of its sections 1 and 2): the ACP suite's requirement IDs.
#  - every test of compliance/acp names requirements, every requirement of
#    compliance/acp/requirements/1.json is cited by a test, and the run
#    judges them (spec 1, a requirements table per agent);
#  - on ananke-mock acp every requirement a required test cites is met;
#  - each mock fault's failing test leaves the requirements it cites
#    not_met ($TMP/FAULT.json of check_fault);
#  - docs/comply.md's ACP requirement table is the suite's (generated here;
#    ANANKE_UPDATE_DOCS=1 rewrites it).

ACP_SET=compliance/acp/requirements/1.json
untagged=$(for f in compliance/acp/*.jsont; do
    grep -q '"requirements": \["ACP-' "$f" || basename "$f" .jsont
done)
[ -z "$untagged" ] && ok "acp: every test names its requirements" || bad "acp: tests without requirements: $untagged"
cited=$(grep -ho '"ACP-[A-Z]*-[0-9]*"' compliance/acp/*.jsont | sort -u | tr -d '"')
uncited=$(jq -r '.requirements[].id' "$ACP_SET" | sort | comm -23 - <(echo "$cited"))
[ -z "$uncited" ] && ok "acp: every requirement of $ACP_SET is cited" || bad "acp: not cited: $uncited"

[ "$(jq -r .spec "$TMP/mock.json")" = 1 ] &&
    [ "$(jq '.agents[0].requirements | length' "$TMP/mock.json")" = "$(jq '.requirements | length' "$ACP_SET")" ] &&
    ok "acp: the mock's run judges spec 1's $(jq '.requirements | length' "$ACP_SET") requirements" ||
    bad "acp: spec $(jq -r .spec "$TMP/mock.json"), $(jq '.agents[0].requirements | length' "$TMP/mock.json") requirements"
notmet=$(jq -r '[.agents[0].tests[] | select(.severity == "required") | .requirements[]] as $r
    | [.agents[0].requirements | to_entries[] | select((.key | IN($r[])) and .value.status != "met") | .key]
    | join(" ")' "$TMP/mock.json")
[ -z "$notmet" ] && ok "acp: mock: every requirement a required test cites is met" || bad "acp: mock: not met: $notmet"

for f in ignore-cancel fs-without-capability terminal-without-capability relative-paths \
    wrong-unknown-method wrong-invalid-params no-session-id bad-protocol-version garbage-line \
    exit-mid-turn leak-terminal; do
    j="$TMP/$f.json"
    [ -s "$j" ] || { bad "acp: fault $f: no result"; continue; }
    want=$(jq -r '[.agents[0].tests[] | select(.status == "fail") | .requirements[]] | unique | join(" ")' "$j")
    got=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status == "not_met") | .key] | sort | join(" ")' "$j")
    [ -n "$want" ] && [ "$want" = "$got" ] && ok "acp: fault $f: $want not_met" ||
        bad "acp: fault $f: cited by the failed test '$want', not_met '$got'"
done

# docs/comply.md's table, from the suite
# shellcheck source=reqs-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/reqs-lib.sh"
reqs_doc_table "ACP" "$ACP_SET" compliance/acp acp-requirements tests/comply/run.sh
