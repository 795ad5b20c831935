#!/usr/bin/env bash
# Startup cost of ananke, measured with `perf stat` (task-clock, the CPU time
# of the process and its children, and page faults), for one or more builds
# side by side (docs/performance.md "Issue 26", Startup):
#
#   bench/startup.sh BUILD_DIR...       e.g. bench/startup.sh /tmp/base/build build
#
# Four commands, each run REPS times per perf stat (default 40), the builds
# interleaved (A B A B: ROUNDS rounds, default 2) so that a change in the
# machine's load hits every build alike:
#   version   ananke --version
#   validate  ananke validate of one test file
#   acp       ananke run of one test against `ananke-mock acp` (stdio)
#   agui      ananke run of one test against `ananke-mock agui` (HTTP)
# --no-history, as a run in CI would. One ananke-mock (the last build's)
# serves every build, so that only ananke differs; the acp figure includes
# the mock's own startup (ananke starts it), the agui one does not (it runs
# already). Prints one line per command, build and round:
#   COMMAND BUILD task-clock-ms page-faults
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPS=${REPS:-40}
ROUNDS=${ROUNDS:-2}
[ $# -ge 1 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
command -v perf >/dev/null || { echo "startup: perf is needed (Debian: linux-perf)" >&2; exit 2; }
builds=()
for b in "$@"; do
  b=$(cd "$b" && pwd)
  [ -x "$b/ananke" ] || { echo "startup: no ananke in $b" >&2; exit 2; }
  builds+=("$b")
done
last=${builds[${#builds[@]} - 1]}
MOCK=$last/ananke-mock
export MOCK ANANKE_HISTORY=0
tmp=$(mktemp -d)
mock_pid=""
trap '[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
"$MOCK" agui --scenario "$here/startup/scenario.yaml" --port-file "$tmp/port" >/dev/null 2>&1 &
mock_pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
[ -s "$tmp/port" ] || { echo "startup: ananke-mock agui did not start" >&2; exit 1; }
ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$tmp/port")/agent"
export ANANKE_MOCK_URL
cd "$here/startup"

cmd_args() { # NAME: the arguments of that command
  case $1 in
    version) echo "--version" ;;
    validate) echo "validate acp.test.yaml" ;;
    acp) echo "run --no-history -c acp.config.yaml acp.test.yaml" ;;
    agui) echo "run --no-history agui.test.yaml" ;;
  esac
}
for name in version validate acp agui; do
  read -r -a args <<<"$(cmd_args "$name")"
  for b in "${builds[@]}"; do # the command works with every build before measuring
    "$b/ananke" "${args[@]}" >/dev/null 2>&1 || { echo "startup: '$b/ananke ${args[*]}' failed" >&2; exit 1; }
  done
  for ((r = 1; r <= ROUNDS; r++)); do
    for b in "${builds[@]}"; do
      perf stat -x, -r "$REPS" -e task-clock,page-faults -o "$tmp/stat" \
        "$b/ananke" "${args[@]}" >/dev/null 2>&1
      ms=$(awk -F, '$3 == "task-clock" {printf "%.2f", $1}' "$tmp/stat")
      pf=$(awk -F, '$3 == "page-faults" {print $1}' "$tmp/stat")
      echo "$name $b $ms $pf"
    done
  done
done
