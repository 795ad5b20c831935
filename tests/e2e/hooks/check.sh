# only the first test reaches the agent; hooks that fail send nothing
set -e
[ "$(wc -l < "$OUT/requests.jsonl")" = 1 ]
