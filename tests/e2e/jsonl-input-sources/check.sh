set -e
# the generated cases were saved as they were loaded
test "$(wc -l < "$OUT/generated.jsonl")" -eq 2
grep -q '"id": "gen-2"' "$OUT/generated.jsonl"
# --dry-run lists generated cases too, contacting only the generator
"$ANANKE" run --dry-run -i "agents:gen?count=2" > "$OUT/dry" 2>&1
grep -q "gen-1" "$OUT/dry"
grep -q "gen-2" "$OUT/dry"
# a generator answering a malformed case: a load error naming its line, nothing run
printf 'rules:\n  - reply: {text: "{\\"id\\": \\"ok\\", \\"input\\": \\"hi\\"}\\n{\\"id\\": 5}"}\n' > "$OUT/bad-gen.yaml"
"$MOCK" openai --scenario "$OUT/bad-gen.yaml" --port-file "$OUT/bad-port" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -s "$OUT/bad-port" ] && break; sleep 0.05; done
set +e
ANANKE_OPENAI_URL="http://127.0.0.1:$(cat "$OUT/bad-port")/v1" "$ANANKE" run -i "agents:gen" > "$OUT/bad" 2>&1
rc=$?
kill $pid; wait $pid 2>/dev/null
set -e
test $rc -eq 2
grep -q "agents:gen:2" "$OUT/bad"
# an unknown generator agent
set +e; "$ANANKE" run -i "agents:nobody" > "$OUT/nobody" 2>&1; rc=$?; set -e
test $rc -eq 2
grep -q "generator agent 'nobody' is not in the config's 'agents:'" "$OUT/nobody"
