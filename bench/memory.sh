#!/usr/bin/env bash
# Peak RSS of `ananke run` on bench/'s one-turn tests, N = 1 and 10,000, at
# parallelism 1 and 16, against one `ananke-mock agui` (docs/performance.md,
# "Issue 26": the memory of 10,000 tests).
#
#   bench/memory.sh                 this tree's Release build (build/, built if missing)
#   bench/memory.sh --base REV      and the tree at REV, built in build-membase/,
#                                   the two runs interleaved, each cell REPS times
#
# Each run starts with no history (the project's .ananke/ removed), writes the
# default history, and must pass every test. Prints one table (min and max of
# the peak RSS in MB over the repetitions, GNU time's %M) and also runs
# `ananke validate` on the same files, and the largest N at -j 16 once more
# with each report of MEM_REPORTS (its peak RSS and wall time: a report keeps
# every test's transcript until the run is over; "record" is --record DIR).
# Writes only under bench/work-memory/, build/ and build-membase/.
# Environment: MEM_REPS (default 3), MEM_SIZES (default "1 10000"), MEM_PARS
# (default "1 16"), MEM_REPORTS (default "junit json record"; "" for none).
set -euo pipefail

BENCH=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$BENCH/lib.sh"
ROOT=$(cd "$BENCH/.." && pwd)
WORK=$BENCH/work-memory
REPS=${MEM_REPS:-3}
read -r -a SIZES <<<"${MEM_SIZES:-1 10000}"
read -r -a PARS <<<"${MEM_PARS:-1 16}"
read -r -a REPORTS <<<"${MEM_REPORTS-junit json record}"
BASE=""
case "${1:-}" in
  --base) BASE=${2:?--base needs a revision} ;;
  "") ;;
  -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: bench/memory.sh [--base REV]" >&2; exit 2 ;;
esac

log() { printf 'memory: %s\n' "$*" >&2; }
die() { printf 'memory: FAILED: %s\n' "$*" >&2; exit 1; }
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed"

build() { # src dir
  { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DANANKE_WERROR=ON &&
    cmake --build "$2" -j2 --target ananke-cli ananke-mock; } >"$WORK/build-$(basename "$2").log" 2>&1 ||
    die "cannot build $1 (see $WORK/build-$(basename "$2").log)"
}

rm -rf "$WORK"
mkdir -p "$WORK"
log "building this tree (Release) in build/"
build "$ROOT" "$ROOT/build"
BINS=(after)
declare -A BIN=([after]=$ROOT/build/ananke)
if [ -n "$BASE" ]; then
  rev=$(git -C "$ROOT" rev-parse --verify "$BASE^{commit}") || die "no revision $BASE"
  src=$ROOT/build-membase/src
  if [ "$(cat "$ROOT/build-membase/REV" 2>/dev/null)" != "$rev" ]; then
    log "building $BASE ($rev) in build-membase/"
    rm -rf "$ROOT/build-membase"
    mkdir -p "$src"
    git -C "$ROOT" archive "$rev" | tar -x -C "$src"
  fi
  build "$src" "$ROOT/build-membase/build"
  echo "$rev" >"$ROOT/build-membase/REV"
  BINS=(before after)
  BIN[before]=$ROOT/build-membase/build/ananke
fi

MOCK=$ROOT/build/ananke-mock
MOCK_PID=""
cleanup() { [ -z "$MOCK_PID" ] || { kill "$MOCK_PID" 2>/dev/null; wait "$MOCK_PID" 2>/dev/null; } || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
"$MOCK" agui --scenario "$BENCH/scenario.yaml" --port 0 --port-file "$WORK/port" \
  >"$WORK/mock.out" 2>"$WORK/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
[ -s "$WORK/port" ] || die "ananke-mock did not start: $(cat "$WORK/mock.err")"
URL="http://127.0.0.1:$(cat "$WORK/port")/agent"

for b in "${BINS[@]}"; do
  mkdir -p "$WORK/$b"
  cat >"$WORK/$b/ananke.config.yaml" <<EOF
version: "1.0"
target:
  type: agui
  endpoint: "$URL"
  agentId: "bench"
EOF
done
for n in "${SIZES[@]}"; do
  bench_gen_tests "$WORK/${BINS[0]}/n$n" "$n"
  [ ${#BINS[@]} = 1 ] || cp -r "$WORK/${BINS[0]}/n$n" "$WORK/${BINS[1]}/"
done

declare -A RSS WALL
# bin n par [report] -> appends the peak RSS (KB) to RSS[bin,n,par] (with a
# report: RSS[bin,n,par,report], and the wall time in s to WALL[...])
one() {
  local b=$1 n=$2 p=$3 r=${4:-} tf=$WORK/time out=$WORK/out.txt key=$1,$2,$3 rep=()
  [ -z "$r" ] || { key+=",$r" rep=(--reporter "$r:$WORK/report.$r"); }
  [ "$r" != record ] || rep=(--record "$WORK/report.$r")
  rm -rf "$WORK/$b/.ananke" "$WORK/report.$r"
  (cd "$WORK/$b" && /usr/bin/time -f '%M %e' -o "$tf" "${BIN[$b]}" run --color never \
    --parallel "$p" "${rep[@]}" "n$n" >"$out" 2>&1) || die "$b N=$n -j $p $r failed: $(tail -5 "$out")"
  grep -q "^$n passed, 0 failed, 0 errors" "$out" || die "$b N=$n -j $p $r: $(tail -3 "$out")"
  [ -z "$r" ] || [ -s "$WORK/report.$r" ] || die "$b N=$n -j $p: no $r report"
  read -r kb s <"$tf"
  RSS[$key]+="$kb " WALL[$key]+="$s "
}
val() { # bin n
  local b=$1 n=$2 tf=$WORK/time
  (cd "$WORK/$b" && /usr/bin/time -f '%M' -o "$tf" "${BIN[$b]}" validate "n$n" >/dev/null 2>&1) ||
    die "$b validate N=$n failed"
  RSS[$b,$n,v]+="$(cat "$tf") "
}
for ((r = 1; r <= REPS; r++)); do
  log "round $r of $REPS"
  for n in "${SIZES[@]}"; do
    for b in "${BINS[@]}"; do val "$b" "$n"; done
    for p in "${PARS[@]}"; do
      for b in "${BINS[@]}"; do one "$b" "$n" "$p"; done
    done
  done
  for rp in "${REPORTS[@]}"; do
    for b in "${BINS[@]}"; do one "$b" "${SIZES[-1]}" 16 "$rp"; done
  done
done

mb() { # KB list -> "min–max MB"
  printf '%s\n' $1 | sort -n | awk '{v[NR]=$1} END {
    if (v[1] == v[NR]) printf "%.1f MB", v[1]/1024; else printf "%.1f–%.1f MB", v[1]/1024, v[NR]/1024 }'
}
hdr="| peak RSS ($REPS runs, min–max) |"
sep="|---|"
for b in "${BINS[@]}"; do hdr+=" $b |"; sep+="---|"; done
echo "$hdr"
echo "$sep"
for n in "${SIZES[@]}"; do
  row="| N = $n, \`validate\` |"
  for b in "${BINS[@]}"; do row+=" $(mb "${RSS[$b,$n,v]}") |"; done
  echo "$row"
  for p in "${PARS[@]}"; do
    row="| N = $n, \`run -j $p\` |"
    for b in "${BINS[@]}"; do row+=" $(mb "${RSS[$b,$n,$p]}") |"; done
    echo "$row"
  done
done
secs() { # s list -> "min–max s"
  printf '%s\n' $1 | sort -n | awk '{v[NR]=$1} END {
    if (v[1] == v[NR]) printf "%.2f s", v[1]; else printf "%.2f–%.2f s", v[1], v[NR] }'
}
n=${SIZES[-1]}
for rp in "${REPORTS[@]}"; do
  row="| N = $n, \`run -j 16 --reporter $rp\` |"
  [ "$rp" != record ] || row="| N = $n, \`run -j 16 --record DIR\` |"
  for b in "${BINS[@]}"; do row+=" $(mb "${RSS[$b,$n,16,$rp]}"), $(secs "${WALL[$b,$n,16,$rp]}") |"; done
  echo "$row"
done
[ -z "$BASE" ] || echo "before: $BASE ($rev); after: this tree"
