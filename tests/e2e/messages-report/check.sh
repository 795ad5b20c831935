# the JSON report holds the conversation after the (last) turn
set -e
jq -e '.tests[0].transcript.turns[0].messages | length == 2' "$OUT/report.json" >/dev/null
jq -e '.tests[0].transcript.turns[0].messages[1].content == "Your cart holds two items."' \
  "$OUT/report.json" >/dev/null
