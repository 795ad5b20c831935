#!/usr/bin/env bash
# make demo: start the bundled mock agent, run examples/ against it, and
# leave the reports in demo-out/. The suite under examples/suite must pass
# and examples/failing must fail; anything else makes the demo fail.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
out="$root/demo-out"
rm -rf "$out"; mkdir -p "$out"

"$B/ananke-mock" agui --scenario "$root/examples/mock/scenario.yaml" \
  --port-file "$out/mock.port" >"$out/mock.log" 2>&1 &
mock=$!
trap 'kill "$mock" 2>/dev/null; wait "$mock" 2>/dev/null' EXIT
for _ in $(seq 1 100); do [ -s "$out/mock.port" ] && break; sleep 0.05; done
[ -s "$out/mock.port" ] || { echo "demo: the mock agent did not start:"; cat "$out/mock.log"; exit 1; }
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$out/mock.port")/agent"
echo "mock AG-UI agent listening on $ANANKE_MOCK_URL"
echo

cd "$root/examples"
echo "\$ ananke run suite/ --reporter junit:../demo-out/junit.xml --reporter json:../demo-out/results.json"
"$B/ananke" run suite/ --reporter junit:"$out/junit.xml" --reporter json:"$out/results.json"
suite_rc=$?
echo
echo "\$ ananke run failing/     # a deliberately failing test"
"$B/ananke" run failing/ --reporter junit:"$out/failing-junit.xml"
failing_rc=$?
echo
echo "\$ ananke run -c acp/ananke.config.yaml acp/     # an ACP coding agent on stdio"
ANANKE_MOCK_BIN="$B/ananke-mock" "$B/ananke" run -c acp/ananke.config.yaml acp/ --reporter json:"$out/acp.json"
acp_rc=$?
echo
echo "reports: demo-out/junit.xml, demo-out/results.json, demo-out/failing-junit.xml"
if [ "$suite_rc" -ne 0 ] || [ "$failing_rc" -ne 1 ] || [ "$acp_rc" -ne 0 ]; then
  echo "demo: unexpected exit codes (suite $suite_rc, expected 0; failing $failing_rc, expected 1; acp $acp_rc, expected 0)"
  exit 1
fi
echo "demo: the suite passed and the failing example failed, as expected"
