#!/usr/bin/env bash
# The libFuzzer targets (fuzz/, docs/fuzzing.md): builds them with clang,
# ASan and UBSan into their own directory, runs every target for a short
# time from its seed corpus (fuzz/seed.sh) and the corpus earlier runs
# grew, then runs every saved regression input (fuzz/regress/<target>/*)
# once. One check per target run and one per regression input; a crash, a
# leak, UB, a timeout (-timeout) or memory over -rss_limit_mb fails it.
#
#   FUZZ_SECONDS  seconds per target (default 4: 76 s of fuzzing for the 19 targets; `make fuzz`: 300)
#   FUZZ_JOBS     targets run at once (default 2)
#   FUZZ_TARGETS  a subset, space-separated ("sse agui"); default every one
#   FUZZ_TIMEOUT  seconds one input may take (default 5)
#   ANANKE_FUZZ_BUILD  the build directory (default build-fuzz)
#
# Findings land in $ANANKE_FUZZ_BUILD/crashes/<target>/; reproduce one with
#   build-fuzz/fuzz/fuzz_<target> FILE
# Last line: "fuzz: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
cd "$tests_root" || exit 1
suite=fuzz pass=0 fail=0
B=${ANANKE_FUZZ_BUILD:-build-fuzz}
secs=${FUZZ_SECONDS:-4}
jobs=${FUZZ_JOBS:-2}
tmo=${FUZZ_TIMEOUT:-5}

command -v clang >/dev/null 2>&1 || broken "clang is not installed (run scripts/setup.sh)"
command -v jq >/dev/null 2>&1 || broken "jq is not installed (run scripts/setup.sh)"
mkdir -p "$B"
B=$(cd "$B" && pwd) # the targets get absolute corpus and artifact paths
if [ ! -f "$B/CMakeCache.txt" ]; then
  CC=clang cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Debug -DANANKE_FUZZ=ON >"$B/build.log" 2>&1 ||
    { cat "$B/build.log"; broken "cmake failed (is libclang-rt-14-dev installed?)"; }
fi
echo "building the fuzz targets in $B/ ..."
cmake --build "$B" --target fuzz -j2 >"$B/build.log" 2>&1 ||
  { tail -n 40 "$B/build.log"; broken "the fuzz targets do not build"; }
bash fuzz/seed.sh "$B" || broken "fuzz/seed.sh failed"

all=$(for f in fuzz/fuzz_*.c; do f=${f#fuzz/fuzz_}; [ "$f" = util.c ] || echo "${f%.c}"; done)
targets=${FUZZ_TARGETS:-$all}

# Inputs bigger than this are not what these formats carry in one piece;
# jsonrpc also needs the whole input to fit in a pipe.
max_len() {
  case $1 in
    config | test_yaml | jsonl | cases_json | jsont | yaml | yaml_fast | jsonrpc | acp | agui | a2a)
      echo 16384 ;;
    *) echo 4096 ;;
  esac
}

log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# run_one TARGET: fuzz it for $secs; output in $log/TARGET.out, status in .rc
run_one() {
  local t=$1
  local bin=$B/fuzz/fuzz_$t
  local dict=()
  [ -s "$B/dict/$t.dict" ] && dict=(-dict="$B/dict/$t.dict")
  mkdir -p "$B/corpus/$t" "$B/crashes/$t"
  "$bin" -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout="$tmo" \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$B/crashes/$t/" "$B/corpus/$t" "$B/seed/$t" >"$log/$t.out" 2>&1
  echo $? >"$log/$t.rc"
}

running=0
for t in $targets; do
  if [ ! -x "$B/fuzz/fuzz_$t" ]; then
    echo "no target fuzz_$t" >"$log/$t.out"; echo 1 >"$log/$t.rc"; continue
  fi
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

for t in $targets; do
  out=$log/$t.out
  runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$out" | grep -oE '[0-9]+$')
  rate=$(( ${runs:-0} / (secs > 0 ? secs : 1) ))
  n=$(find "$B/corpus/$t" -type f | wc -l)
  if [ "$(cat "$log/$t.rc")" = 0 ]; then
    ok "fuzz_$t: ${secs} s, ${runs:-?} inputs (${rate:-?}/s), corpus $n"
  else
    bad "fuzz_$t: finding in $B/crashes/$t/ (reproduce: $B/fuzz/fuzz_$t FILE)"
    grep -E '^(==[0-9]+==|SUMMARY|.*runtime error|    #[0-9] |artifact_prefix|Test unit written|ALARM|.*-timeout)' "$out" |
      head -n 30 | sed 's/^/    /'
  fi
done

# every saved finding, once: each must now pass
for t in $targets; do
  for f in fuzz/regress/"$t"/*; do
    [ -f "$f" ] || continue
    check "regress $t/$(basename "$f")" timeout -k 5 120 "$B/fuzz/fuzz_$t" -timeout="$tmo" \
      -rss_limit_mb=2048 -malloc_limit_mb=1024 -runs=1 "$f"
  done
done
finish
