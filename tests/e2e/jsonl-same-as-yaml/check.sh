# Same checks, same verdicts, same failure texts: only the location differs.
set -e
f='[.findings[] | {kind, assertion, expected, actual, detail}]'
jq -c ".tests[0] | $f" "$OUT/results.json" >"$OUT/yaml.findings"
jq -c ".tests[1] | $f" "$OUT/results.json" >"$OUT/jsonl.findings"
test "$(jq length "$OUT/yaml.findings")" = 10
diff "$OUT/yaml.findings" "$OUT/jsonl.findings"
