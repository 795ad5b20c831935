#!/usr/bin/env bash
# The builds that find what the Debug gcc build does not, warnings as errors:
#   - gcc -O2 (Release, build-release/): maybe-uninitialized, dangling pointers;
#     with the benchmark programs (bench-hotpaths), which are outside `all`
#   - clang (Debug, build-clang/), every target the unit tests included:
#     clang's own warnings (string concatenation, unknown flags); skipped when
#     ANANKE_CLANG_BUILD_ELSEWHERE is set (.ci/run: the sanitized run's build,
#     clang's too, does it)
# Ends with "release-build: N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
pass=0 fail=0

# build NAME DIR CMAKE-ARGS...
build() {
  local name=$1 dir=$2; shift 2
  if cmake -S "$root" -B "$root/$dir" -DANANKE_WERROR=ON "$@" >"$out" 2>&1 &&
     cmake --build "$root/$dir" -j"$(nproc)" >>"$out" 2>&1; then
    echo "ok   $name, -Werror"
    pass=$((pass + 1))
  else
    grep -E "error|warning" "$out" | head -n 20
    echo "FAIL $name, -Werror"
    fail=$((fail + 1))
  fi
}

build "Release build (gcc -O2)" build-release -DCMAKE_BUILD_TYPE=Release
# the benchmark programs (bench/hotpaths, outside `all`) still build against the API
if cmake --build "$root/build-release" -j"$(nproc)" --target bench-hotpaths >"$out" 2>&1; then
  echo "ok   bench programs (bench-hotpaths), -Werror"
  pass=$((pass + 1))
else
  grep -E "error|warning" "$out" | head -n 20
  echo "FAIL bench programs (bench-hotpaths), -Werror"
  fail=$((fail + 1))
fi
if [ -n "${ANANKE_CLANG_BUILD_ELSEWHERE:-}" ]; then
  # .ci/run: its sanitized run builds every target with clang, -Werror (Makefile)
  echo "note clang build: made by the sanitized run (ANANKE_CLANG_BUILD_ELSEWHERE)"
elif command -v clang >/dev/null 2>&1; then
  build "clang build (every target)" build-clang -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang
else
  echo "FAIL clang build: clang is not installed (scripts/setup.sh installs it)"
  fail=$((fail + 1))
fi
echo "release-build: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
