# Helpers for the target.start cases (start-*), sourced by their check.sh:
# each builds a project in a temporary directory, so no port is fixed.
set -euo pipefail
proj=$(mktemp -d)
trap 'pkill_proj; rm -rf "$proj"' EXIT
cd "$proj"
printf 'default:\n  steps:\n    - text: "hello from the started agent"\n' > agent.mock.yaml
printf 'default:\n  steps:\n    - delay_ms: 5000\n    - text: "late"\n' > slow.mock.yaml
cat > hello.test.yaml <<'T'
version: "1.0"
name: hello
turns:
  - user: "hi"
    assert:
      text:
        must_match: "started agent"
T

# a port free now, below the kernel's ephemeral range (32768 and up by
# default) so that no client connection of a case running beside this one
# can hold it next: a mock binds it, says so, and stops
free_port() {
  local d pid p
  d=$(mktemp -d)
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 12000))
    "$MOCK" agui --scenario agent.mock.yaml --port "$p" --port-file "$d/p" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do [ -s "$d/p" ] || ! kill -0 "$pid" 2>/dev/null && break; sleep 0.01; done
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    if [ -s "$d/p" ]; then cat "$d/p"; rm -rf "$d"; return 0; fi
  done
  rm -rf "$d"; echo "no free port found" >&2; return 1
}

# config PORT START_YAML: an agui target on PORT with `start:` as given
# (indented by the caller at four spaces)
config() {
  cat > ananke.config.yaml <<C
version: "1.0"
target:
  type: agui
  endpoint: "http://127.0.0.1:$1/agent"
  agentId: a
  timeout_ms: 10000
  start:
$2
C
}

# processes still running whose command line names this project
# (and the `sleep 100$$` the fake servers run)
left_running() { pgrep -f -- "$proj|sleep 100$$" || true; }
pkill_proj() { local p; for p in $(pgrep -f -- "$proj|sleep 100$$" 2>/dev/null); do kill "$p" 2>/dev/null || true; done; }
nothing_left() {
  local l; l=$(left_running)
  [ -z "$l" ] || { echo "left running: $(ps -o pid,args -p "$(echo $l | tr ' ' ,)")"; return 1; }
}
