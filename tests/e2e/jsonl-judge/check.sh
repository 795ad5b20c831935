# what the judge was shown and answered is kept in the JSON report
set -e
jq -e '.tests[] | select(.name == "judge-pass") | .judgements[0] | .agent == "judge" and .verdict == "pass" and (.reason | test("nice day")) and (.shown | test("I want a refund")) and (.answer | test("passed"))' "$OUT/results.json"
jq -e '.tests[] | select(.name == "judge-metadata") | .judgements[0].shown | test("\"tone\": \"friendly\"")' "$OUT/results.json"
jq -e '.tests[] | select(.name == "judge-malformed") | .judgements[0] | .verdict == "error" and .answer == "Well, I think it is mostly fine."' "$OUT/results.json"
