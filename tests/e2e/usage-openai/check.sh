# One report per model call, named by the model, priced by the "*" price.
set -e
jq -e '.tests[1].transcript.turns[0].usage | length == 2 and
  (.[0] | .model == "shop-model" and .input_tokens == 200 and .output_tokens == 10 and .cost_source == "prices") and
  (.[1] | .total_tokens == 305 and (.cost * 1e6 | round) == 3150)' \
  "$OUT/results.json" >/dev/null || { echo "openai usage reports wrong"; jq '.tests[1].transcript.turns[0].usage' "$OUT/results.json"; exit 1; }
