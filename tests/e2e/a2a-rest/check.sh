# `ananke run` against an A2A target over REST (binding: rest): the target
# starts ananke-mock a2a on AGENT_PORT; both turns pass, and every message
# went to the REST paths (/rest/v1/message:stream), none to JSON-RPC (/rpc).
set -euo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# a port below the ephemeral range, so no client connection beside us holds it
for _ in $(seq 1 50); do
  p=$((20000 + RANDOM % 12000))
  "$MOCK" a2a --port "$p" --port-file "$d/p" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do [ -s "$d/p" ] || ! kill -0 "$pid" 2>/dev/null && break; sleep 0.01; done
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  [ -s "$d/p" ] && break
done
port=$(cat "$d/p")
rm -rf .ananke
AGENT_PORT=$port REQUESTS=$OUT/requests.jsonl "$ANANKE" run --no-history >"$OUT/run.out" 2>&1
cat "$OUT/run.out"
rm -rf .ananke
grep -q '^PASS  hello over REST' "$OUT/run.out"
[ "$(grep -c '"method":"POST"' "$OUT/requests.jsonl")" = 2 ]
! grep '"method":"POST"' "$OUT/requests.jsonl" | grep -qv '"path":"/rest/v1/message:stream"'
grep -q '"taskId":"task-1"' "$OUT/requests.jsonl"
echo "a2a-rest: ok"
