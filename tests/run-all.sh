#!/usr/bin/env bash
# The whole suite: unit tests (ctest), the mock's own tests, the end-to-end
# cases, the AG-UI conformance corpus, the examples (the demo), the JSON Schemas, the GitHub Action's steps (tests/action; installing from a fake release: tests/action/packages.sh), the installed and packaged ananke (the .deb, the self-contained tarball, the npm packages), the peer test against the official
# AG-UI encoder, the ACP compliance suite (mock faults and the SDK example agent), the AG-UI compliance suite (good and broken mocks, the official encoder), the MCP target against the MCP reference servers, the A2A target against an agent built on the A2A SDK (and ananke-mock a2a for the faults), data races under ThreadSanitizer, and the HTML report in headless Chromium. Ends with one line "tests: N passed, N failed" (the sum
# over every suite) and exits non-zero on any failure.
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
cd "$(dirname "$0")/.."
B=${ANANKE_BUILD:-build}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# step NAME COMMAND...: one suite; its output is shown and kept, its counts
# go to $log/NAME.counts ("PASSED FAILED RC"), summed at the end, so that
# steps may also run in lanes side by side (lanes below).
step() { # NAME COMMAND...
  local name=$1 t0=$SECONDS; shift
  times >"$log/$name.cpu0" # this shell's children so far (a lane's own)
  echo "== $name"
  "$@" 2>&1 | tee "$log/$name"
  local rc=${PIPESTATUS[0]} p=0 f=0 line
  if line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log/$name" | tail -n1) && [ -n "$line" ]; then
    f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
    p=$(( $(sed -E 's/.* tests failed out of ([0-9]+).*/\1/' <<<"$line") - f ))
  elif line=$(grep -E '^[a-z0-9 -]*:? ?[0-9]+ passed, [0-9]+ failed' "$log/$name" | tail -n1) && [ -n "$line" ]; then
    p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')
    f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
  fi
  # a suite that failed without counting a failure still counts as one
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  echo "$name $p $f $rc" >"$log/$name.counts"
  times >"$log/$name.cpu1"
  echo "-- $name: $((SECONDS - t0)) s, CPU $(cpu_s "$log/$name.cpu0" "$log/$name.cpu1") s"
  echo
}

# cpu_s BEFORE AFTER: the CPU seconds (user + system) this shell's children
# used between two outputs of `times` (its second line: 0m1.250s 0m0.310s)
cpu_s() {
  awk 'FNR == 2 { for (i = 1; i <= 2; i++) { split($i, t, "m"); c[FILENAME == ARGV[1]] += t[1] * 60 + t[2] } }
       END { printf "%.0f", c[0] - c[1] }' "$1" "$2"
}

# lanes FUNCTION...: each function runs its steps one after another, the
# functions side by side (the machine's two cores are mostly idle while
# these suites wait on agents, servers and node); each lane's output is
# shown whole, in order, once all are done. e2e's serial cases (which
# measure time) and the builds run alone.
lanes() {
  local f t0=$SECONDS
  for f in "$@"; do "$f" >"$log/lane-$f" 2>&1 & done
  wait
  for f in "$@"; do cat "$log/lane-$f"; done
  echo "-- lanes ($*): $((SECONDS - t0)) s"
  echo
}
# Five lanes of about equal length (the suites' times in CI, 2026-11-28:
# comply-mcp 173 s, the two official-kit comparisons 100 and 122 s, the
# other lanes 170 and 196 s with four; these suites mostly wait on
# windows, servers and node, at half a core or less each, so a fifth lane
# costs little CPU; the longest suites lead).
lane_mcp() {
  step comply-mcp env ANANKE_BUILD="$B" bash tests/comply/mcp.sh
  step mock-a2a env ANANKE_BUILD="$B" bash tests/mock/a2a.sh
}
lane_kit() {
  step comply-mcp-kit env ANANKE_BUILD="$B" bash tests/comply/mcp-kit.sh
  step agui-corpus env ANANKE_BUILD="$B" bash tests/agui-corpus/run.sh
}
lane_kit_next() {
  step comply-mcp-kit-next env ANANKE_BUILD="$B" bash tests/comply/mcp-kit-next.sh
  step comply-html env ANANKE_BUILD="$B" bash tests/comply/html.sh
  # the HTTP clients' byte-level exchanges (mostly waiting: 44 s of wall
  # for 8 s of CPU); here, not beside valgrind and tsan: all three run
  # tests/e2e's cases, whose out/ directories are in the tree
  step clients env ANANKE_BUILD="$B" bash tests/clients/run.sh
}
lane_a2a_tools() {
  step comply-a2a env ANANKE_BUILD="$B" bash tests/comply/a2a.sh
  step tools env ANANKE_BUILD="$B" bash tests/tools/run.sh
  step comply env ANANKE_BUILD="$B" bash tests/comply/run.sh
  step comply-expected env ANANKE_BUILD="$B" bash tests/comply/expected.sh
  step comply-verdicts env ANANKE_BUILD="$B" bash tests/comply/verdicts.sh
  step docs bash tests/docs.sh
  step lazy-load env ANANKE_BUILD="$B" bash tests/lazy-load.sh
}
lane_sdks() {
  step acp-sdk env ANANKE_BUILD="$B" bash tests/acp-sdk/run.sh
  step mcp env ANANKE_BUILD="$B" bash tests/mcp/run.sh
  step a2a env ANANKE_BUILD="$B" bash tests/a2a/run.sh
  step otlp env ANANKE_BUILD="$B" bash tests/otlp/run.sh
  step action env ANANKE_BUILD="$B" bash tests/action/run.sh
  step examples env ANANKE_BUILD="$B" bash tests/examples.sh
  step comply-agui env ANANKE_BUILD="$B" bash tests/comply/agui.sh
  step mock-acp env ANANKE_BUILD="$B" bash tests/mock/acp.sh
  step mock env ANANKE_BUILD="$B" bash tests/mock/run.sh
  step mock-openai env ANANKE_BUILD="$B" bash tests/mock/openai.sh
  step mock-mcp env ANANKE_BUILD="$B" bash tests/mock/mcp.sh
}
# The attack suites (their time bounds are generous: tens of seconds for
# what takes a few) and the watch loop mostly wait (under the sanitizers
# hostile alone takes 80 s), so in the plain run they share the
# machine with the builds and checks that only the plain run has, which
# keep both cores busy: those run at nice 10, so that the suites that wait
# on time get the CPU the moment they want it. Measured in CI
# (2026-11-28), one after the other the plain run's tail took 490 s.
lane_security() {
  step security env ANANKE_BUILD="$B" bash tests/security/run.sh
}
lane_hostile() {
  step hostile env ANANKE_BUILD="$B" bash tests/hostile/run.sh
}
lane_watch() {
  step watch env ANANKE_BUILD="$B" bash tests/watch/run.sh
  step watch-poll env ANANKE_BUILD="$B" ANANKE_WATCH_POLL=1 bash tests/watch/run.sh
  plain || return 0
  # the portability layer's fallbacks, forced on (build-port-fallback/)
  step port-fallback bash tests/port-fallback.sh
}
# The plain run's own (-O2 warnings, the packages, valgrind and the fuzz
# targets do not depend on the sanitizers; valgrind cannot run sanitizer
# builds); the builds, packages and fuzzing at nice 10 (above).
lane_release() {
  step release-build nice -n 10 bash tests/release-build.sh
  # the installed binaries with the checkout hidden, from build-release/
  step install nice -n 10 bash tests/install.sh
  # the packages, from the same build-release/: the .deb unpacked, the
  # self-contained tarball in a glibc-only root, the npm tarballs installed
  step deb nice -n 10 bash tests/deb.sh
  step release nice -n 10 bash tests/release.sh
  step npm nice -n 10 bash tests/npm.sh
  step action-packages nice -n 10 bash tests/action/packages.sh
}
# valgrind, then ThreadSanitizer (a build of its own, build-tsan/): both
# run tests/e2e cases, whose out/ directories are in the tree, so one
# after the other; both at nice 0: valgrind's MCP cases have turns with
# time limits, and tsan's e2e cases include some that measure time
lane_valgrind() {
  step valgrind env ANANKE_BUILD="$B" bash tests/valgrind.sh
  step tsan bash tests/tsan.sh
}
# the fuzz targets build with clang and their own sanitizers (build-fuzz/)
lane_fuzz() {
  step fuzz nice -n 10 bash tests/fuzz/run.sh
}
plain() { ! grep -q '^ANANKE_SANITIZE:STRING=.' "$B/CMakeCache.txt" 2>/dev/null; }

# the lint (tests/lint.sh: banned calls, layers, Linux-only calls, function
# length) and its own test, first: they take a few seconds
step lint bash tests/lint.sh
step lint-self bash tests/lint/run.sh
step unit ctest --test-dir "$B" --output-on-failure -j2
step e2e env ANANKE_BUILD="$B" bash tests/e2e/run.sh
lanes lane_mcp lane_kit lane_kit_next lane_a2a_tools lane_sdks
if plain; then
  lanes lane_security lane_hostile lane_watch lane_release lane_valgrind lane_fuzz
else
  lanes lane_security lane_hostile lane_watch
fi
step schema env ANANKE_BUILD="$B" bash tests/schema/run.sh
[ -f tests/peers/run.sh ] && step peers env ANANKE_BUILD="$B" bash tests/peers/run.sh
# the page in Chromium: once, in the plain run (the sanitized build writes
# the same bytes, which e2e and the unit tests check; Chromium is the slow part)
plain && step browser env ANANKE_BUILD="$B" bash tests/browser/run.sh

total_pass=0 total_fail=0
failed=()
for c in "$log"/*.counts; do
  read -r name p f rc <"$c"
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  [ "$rc" -ne 0 ] && failed+=("$name")
done
[ ${#failed[@]} -gt 0 ] && echo "failed suites: ${failed[*]}"
echo "tests: $total_pass passed, $total_fail failed"
[ ${#failed[@]} -eq 0 ]
