#!/usr/bin/env bash
# The portability layer's fallbacks (src/lib/core/port.h), proven on Linux:
# a build with -DANANKE_PORT_FORCE_FALLBACK=ON (every AN_HAVE_* 0, so
# pipe() + fcntl, the fd loop, /dev/urandom, no /proc, no pidfd, no
# namespaces, the O_NOFOLLOW walk instead of openat2) in build-port-fallback/,
# then the unit tests of the code that uses them (and the two programs,
# built: every use compiles against the fallbacks), and watch mode
# (tests/watch/run.sh: no inotify there, so it polls).
# Ends with ctest's "N tests failed out of N" and "watch: N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
B="$root/build-port-fallback"
tests=(test_port test_watch test_proc test_confine test_acp_path test_acp_client test_start test_hook
       test_mock_http)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! cmake -S "$root" -B "$B" -DCMAKE_BUILD_TYPE=Debug -DANANKE_PORT_FORCE_FALLBACK=ON >"$out" 2>&1 ||
   ! cmake --build "$B" -j2 --target "${tests[@]}" ananke-cli ananke-mock >>"$out" 2>&1; then
  grep -E "error|warning" "$out" | head -n 20
  echo "port-fallback: the build with the fallbacks forced failed"
  exit 1
fi
grep -q '^#define AN_HAVE_PIPE2 0' "$B/generated/an_config.h" || { echo "port-fallback: AN_HAVE_PIPE2 is not 0"; exit 1; }
regex="^($(IFS='|'; echo "${tests[*]}"))\$"
ctest --test-dir "$B" --output-on-failure -R "$regex"
rc=$?
ANANKE_BUILD="$B" bash "$root/tests/watch/run.sh" || rc=1
exit $rc
