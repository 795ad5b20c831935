# The JSONL case and the YAML test judge the same rules alike: the same
# findings (kind, label, expected, actual), only the location differs.
set -e
f() { jq -c --arg n "$1" '[.tests[] | select(.name == $n) | .findings[] | {kind, assertion, expected, actual}]' "$OUT/results.json"; }
yaml=$(f "block rules in yaml"); jsonl=$(f "rules")
[ "$yaml" = "$jsonl" ] || { echo "yaml  $yaml"; echo "jsonl $jsonl"; exit 1; }
jq -e '[.tests[] | select(.name == "rules") | .findings[].kind] == ["tools.sequence"]' \
  "$OUT/results.json" >/dev/null || { echo "expected one tools.sequence finding"; exit 1; }
