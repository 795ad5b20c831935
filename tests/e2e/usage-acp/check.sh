# The turns keep what the agent reported: tokens from PromptResponse.usage,
# the cost as the growth of usage_update's running total during the turn.
set -e
jq -e '.tests[0].transcript.turns |
  (.[0].usage == [{"input_tokens":100,"output_tokens":20,"total_tokens":120,"cost":0.5,"cost_source":"agent"}]) and
  (.[1].usage == [{"input_tokens":150,"output_tokens":30,"total_tokens":180,"cost":0.75,"cost_source":"agent"}])' \
  "$OUT/results.json" >/dev/null || { echo "usage not kept as reported"; jq '.tests[0].transcript.turns[].usage' "$OUT/results.json"; exit 1; }
