# docs/config.md's target.start example, run: one `ananke run` starts the
# agent on the port AGENT_PORT names, tests it and stops it.
set -euo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# a port below the ephemeral range, so no client connection beside us holds it
for _ in $(seq 1 50); do
  p=$((20000 + RANDOM % 12000))
  "$MOCK" agui --scenario agent.mock.yaml --port "$p" --port-file "$d/p" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do [ -s "$d/p" ] || ! kill -0 "$pid" 2>/dev/null && break; sleep 0.01; done
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  [ -s "$d/p" ] && break
done
port=$(cat "$d/p")
rm -rf .ananke
AGENT_PORT=$port "$ANANKE" run > "$OUT/run.out" 2>&1
cat "$OUT/run.out"
grep -q '^PASS  hello' "$OUT/run.out"
grep -qx "http://127.0.0.1:$port" .ananke/start.log
! pgrep -f -- "--port $port\$" > /dev/null
rm -rf .ananke
echo "start-example: ok"
