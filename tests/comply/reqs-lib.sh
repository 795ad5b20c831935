# shellcheck shell=bash disable=SC2154
# Sourced by tests/comply/acp-reqs.sh and agui-reqs.sh (uses the caller's
# TMP, ok, bad): what the suites' requirement checks share.

# reqs_doc_table NAME SET SUITE_DIR MARK RERUN: docs/comply.md's block between
# <!-- MARK --> and <!-- /MARK --> is the table of SET's requirements and the
# tests of SUITE_DIR citing each (ANANKE_UPDATE_DOCS=1 rewrites it; RERUN is
# the command said when it is stale).
reqs_doc_table() {
    local name=$1 set=$2 dir=$3 mark=$4 rerun=$5 f
    for f in "$dir"/*.jsont; do
        printf '{"file": "%s", "requirements": %s}\n' "$(basename "$f" .jsont)" \
            "$(grep -o '"requirements": \[[^]]*\]' "$f" | sed 's/^"requirements": //')"
    done >"$TMP/$mark-tests.jsonl"
    {
        echo '| ID | level | requirement | tests |'
        echo '|---|---|---|---|'
        jq -s -r --slurpfile tests "$TMP/$mark-tests.jsonl" '.[0].requirements[] | . as $r
            | [$tests[] | select(.requirements | index($r.id)) | "`\(.file)`"] as $by
            | "| [\($r.id)](\($r.section)) | \($r.level) | \($r.title) | \($by | join(", ")) |"' "$set"
    } >"$TMP/$mark-table.md"
    awk -v t="$TMP/$mark-table.md" -v o="<!-- $mark -->" -v c="<!-- /$mark -->" '
        $0 == c { while ((getline l < t) > 0) print l; skip = 0 }
        !skip { print }
        $0 == o { skip = 1 }' docs/comply.md >"$TMP/$mark-comply.md"
    if ! grep -qx "<!-- $mark -->" docs/comply.md; then
        bad "docs/comply.md: no <!-- $mark --> block"
    elif [ "${ANANKE_UPDATE_DOCS:-0}" = 1 ]; then
        cp "$TMP/$mark-comply.md" docs/comply.md
        ok "docs/comply.md: the $name requirement table rewritten (ANANKE_UPDATE_DOCS=1)"
    elif cmp -s "$TMP/$mark-comply.md" docs/comply.md; then
        ok "docs/comply.md: the $name requirement table is current"
    else
        bad "docs/comply.md: the $name requirement table is stale: ANANKE_UPDATE_DOCS=1 $rerun"
        diff docs/comply.md "$TMP/$mark-comply.md" | head -n 10
    fi
}
