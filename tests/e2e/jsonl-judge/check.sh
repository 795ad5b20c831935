# what the judge was shown and answered is kept in the JSON report
set -e
jq -e '.tests[] | select(.name == "judge-pass") | .judgements[0] | .agent == "judge" and .verdict == "pass" and (.reason | test("nice day")) and (.shown | test("I want a refund")) and (.answer | test("passed"))' "$OUT/results.json"
jq -e '.tests[] | select(.name == "judge-metadata") | .judgements[0].shown | test("\"tone\": \"friendly\"")' "$OUT/results.json"
jq -e '.tests[] | select(.name == "judge-malformed") | .judgements[0] | .verdict == "error" and .answer == "Well, I think it is mostly fine."' "$OUT/results.json"
# and in every other report
"$ANANKE" run cases.jsonl -o "$OUT/r.jsonl" -o "$OUT/r.xml" -o "$OUT/r.md" -o "$OUT/r.html" >/dev/null 2>&1 || true
jq -es 'map(select(.type == "result" and .id == "judge-pass")) | .[0].judgements[0].verdict == "pass"' "$OUT/r.jsonl"
grep -q 'judge &apos;judge&apos; passed' "$OUT/r.xml"
grep -q 'shown: You are a strict test validator' "$OUT/r.xml"
grep -q "judge 'judge' failed" "$OUT/r.md"
grep -q 'judge &#39;judge&#39; gave no verdict' "$OUT/r.html"
