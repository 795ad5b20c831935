#!/usr/bin/env bash
# The optimised build with warnings as errors: -O2 finds what -O0 does not
# (maybe-uninitialized, dangling pointers). Builds into build-release/.
# Ends with "release-build: N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if cmake -S "$root" -B "$root/build-release" -DCMAKE_BUILD_TYPE=Release -DANANKE_WERROR=ON >"$out" 2>&1 &&
   cmake --build "$root/build-release" -j"$(nproc)" >>"$out" 2>&1; then
  echo "ok   Release build, -Werror"
  echo "release-build: 1 passed, 0 failed"
else
  grep -E "error|warning" "$out" | head -n 20
  echo "FAIL Release build, -Werror"
  echo "release-build: 0 passed, 1 failed"
  exit 1
fi
