# the warning is in the JSON report too, with the same text as strict's error
jq -e '.tests[0].transcript.turns[0].warnings | any(startswith("protocol violation [open-before-use] at event #5 (TEXT_MESSAGE_CONTENT)"))' \
  "$OUT/results.json" >/dev/null
