# The JSONL case and the YAML test assert the same budget: the same
# findings (label, expected, actual), only the location differs.
set -e
f() { jq -c --arg n "$1" '[.tests[] | select(.name == $n) | .findings[] | {kind, assertion, expected, actual}]' "$OUT/results.json"; }
yaml=$(f "over the token budget"); jsonl=$(f "same-budget")
[ "$yaml" = "$jsonl" ] && [ "$yaml" != "[]" ] || { echo "yaml $yaml"; echo "jsonl $jsonl"; exit 1; }
