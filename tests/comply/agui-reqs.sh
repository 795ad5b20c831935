# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/agui.sh (uses its TMP, ok, bad and the JSON
# results of its sections 1-3): the AG-UI suite's requirement IDs.
#  - every test of compliance/agui names requirements, every requirement of
#    compliance/agui/requirements/1.1.json is cited by a test, and the run
#    judges them (spec 1.1, a requirements table per agent);
#  - on ananke-mock agui and on the official encoder's server every
#    requirement a required test cites is met;
#  - on the broken mock (one bug per test) the requirements not met are
#    exactly those the failing tests cite;
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

# met_by_required FILE: the requirements required tests cite that are not met ("" = none)
met_by_required() {
    jq -r '[.agents[0].tests[] | select(.severity == "required") | .requirements[]] as $r
        | [.agents[0].requirements | to_entries[] | select((.key | IN($r[])) and .value.status != "met") | .key]
        | join(" ")' "$1"
}
if [ -s "$TMP/mock.json" ]; then
    [ "$(jq -r .spec "$TMP/mock.json")" = 1.1 ] &&
        [ "$(jq '.agents[0].requirements | length' "$TMP/mock.json")" = "$(jq '.requirements | length' "$AGUI_SET")" ] &&
        ok "agui: the mock's run judges spec 1.1's $(jq '.requirements | length' "$AGUI_SET") requirements" ||
        bad "agui: spec $(jq -r .spec "$TMP/mock.json"), $(jq '.agents[0].requirements | length' "$TMP/mock.json") requirements"
    notmet=$(met_by_required "$TMP/mock.json")
    [ -z "$notmet" ] && ok "agui: mock: every requirement a required test cites is met" || bad "agui: mock: not met: $notmet"
else
    bad "agui: no result of the mock's run"
fi
if [ -s "$TMP/encoder.json" ]; then
    notmet=$(met_by_required "$TMP/encoder.json")
    [ -z "$notmet" ] && ok "agui: encoder: every requirement a required test cites is met" ||
        bad "agui: encoder: not met: $notmet"
fi
if [ -s "$TMP/broken.json" ]; then
    want=$(jq -r '[.agents[0].tests[] | select(.status == "fail") | .requirements[]] | unique | join(" ")' "$TMP/broken.json")
    got=$(jq -r '[.agents[0].requirements | to_entries[] | select(.value.status == "not_met") | .key] | sort | join(" ")' "$TMP/broken.json")
    [ -n "$want" ] && [ "$want" = "$got" ] && ok "agui: broken: not met exactly what its failing tests cite ($(wc -w <<<"$got") requirements)" ||
        bad "agui: broken: cited by the failed tests '$want', not_met '$got'"
fi

# docs/comply.md's table, from the suite
for f in compliance/agui/*.jsont; do
    printf '{"file": "%s", "requirements": %s}\n' "$(basename "$f" .jsont)" \
        "$(grep -o '"requirements": \[[^]]*\]' "$f" | sed 's/^"requirements": //')"
done >"$TMP/agui-tests.jsonl"
{
    echo '| ID | level | requirement | tests |'
    echo '|---|---|---|---|'
    jq -s -r --slurpfile tests "$TMP/agui-tests.jsonl" '.[0].requirements[] | . as $r
        | [$tests[] | select(.requirements | index($r.id)) | "`\(.file)`"] as $by
        | "| [\($r.id)](\($r.section)) | \($r.level) | \($r.title) | \($by | join(", ")) |"' "$AGUI_SET"
} >"$TMP/agui-table.md"
awk -v t="$TMP/agui-table.md" '
    /^<!-- \/agui-requirements -->$/ { while ((getline l < t) > 0) print l; skip = 0 }
    !skip { print }
    /^<!-- agui-requirements -->$/ { skip = 1 }' docs/comply.md >"$TMP/agui-comply.md"
if ! grep -q '^<!-- agui-requirements -->$' docs/comply.md; then
    bad "docs/comply.md: no <!-- agui-requirements --> block"
elif [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
    cp "$TMP/agui-comply.md" docs/comply.md
    ok "docs/comply.md: the AG-UI requirement table rewritten (ANANKE_UPDATE_DOCS=1)"
elif cmp -s "$TMP/agui-comply.md" docs/comply.md; then
    ok "docs/comply.md: the AG-UI requirement table is current"
else
    bad "docs/comply.md: the AG-UI requirement table is stale: ANANKE_UPDATE_DOCS=1 tests/comply/agui.sh"
    diff docs/comply.md "$TMP/agui-comply.md" | head -n 10
fi
