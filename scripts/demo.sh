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
"$B/ananke-mock" openai --scenario "$root/examples/openai/mock.yaml" \
  --port-file "$out/openai.port" >"$out/openai.log" 2>&1 &
oamock=$!
"$B/ananke-mock" http --scenario "$root/examples/http/mock.yaml" \
  --port-file "$out/http.port" >"$out/http.log" 2>&1 &
httpmock=$!
trap 'kill "$mock" "$oamock" "$httpmock" 2>/dev/null; wait "$mock" "$oamock" "$httpmock" 2>/dev/null' EXIT
for _ in $(seq 1 100); do [ -s "$out/mock.port" ] && [ -s "$out/openai.port" ] && [ -s "$out/http.port" ] && break; sleep 0.05; done
[ -s "$out/http.port" ] || { echo "demo: the mock run-case agent did not start:"; cat "$out/http.log"; exit 1; }
export ANANKE_HTTP_URL="http://127.0.0.1:$(cat "$out/http.port")"
[ -s "$out/mock.port" ] || { echo "demo: the mock agent did not start:"; cat "$out/mock.log"; exit 1; }
[ -s "$out/openai.port" ] || { echo "demo: the mock model did not start:"; cat "$out/openai.log"; exit 1; }
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$out/mock.port")/agent"
export ANANKE_OPENAI_URL="http://127.0.0.1:$(cat "$out/openai.port")/v1"
echo "mock AG-UI agent listening on $ANANKE_MOCK_URL"
echo "mock OpenAI-compatible model listening on $ANANKE_OPENAI_URL"
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
echo "\$ ananke run -c openai/ananke.config.yaml openai/ -v -o ../demo-out/openai.md     # a model with tools, a judge"
"$B/ananke" run -c openai/ananke.config.yaml openai/ -v -o "$out/openai.md"
openai_rc=$?
echo
# an agent whose tools are MCP tools, through ananke's tool proxy: the
# tool server (ananke-mock mcp) and the agent (ananke-mock agui) are started
# by the run itself; the summary shows the tool coverage
echo "\$ ananke run -c tools/ananke.config.yaml tools/ -o ../demo-out/tools.md     # MCP tools through the proxy"
ANANKE_MOCK_BIN="$B/ananke-mock" \
  ANANKE_TOOLS_AGENT_PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])') \
  "$B/ananke" run -c tools/ananke.config.yaml tools/ -o "$out/tools.md" --reporter json:"$out/tools.json"
tools_rc=$?
echo
# seed 004: two builds of an agent behind POST /run-case, each run on cases.json;
# both have known failures (see examples/http/mock.yaml), so each exits 1
for v in baseline new; do
  echo "\$ ANANKE_HTTP_VERSION=$v ananke run -c http/ananke.config.yaml http/ --record ../demo-out/http-$v --reporter json:../demo-out/http-$v.json"
  ANANKE_HTTP_VERSION=$v "$B/ananke" run -c http/ananke.config.yaml http/ --record "$out/http-$v" \
    --reporter json:"$out/http-$v.json"
  eval "http_${v}_rc=\$?"
  echo
done
# what changed between the two builds, case by case, and may it ship
echo "\$ ananke compare ../demo-out/http-baseline ../demo-out/http-new -o ../demo-out/compare"
"$B/ananke" compare "$out/http-baseline" "$out/http-new" -o "$out/compare"
compare_rc=$?
echo
echo "reports: demo-out/junit.xml, demo-out/results.json, demo-out/failing-junit.xml, demo-out/openai.md,"
echo "         demo-out/tools.md, demo-out/tools.json (tool coverage),"
echo "         demo-out/http-baseline.json, demo-out/http-new.json, and the evidence pack:"
echo "open demo-out/compare/report.html"
if [ "$suite_rc" -ne 0 ] || [ "$failing_rc" -ne 1 ] || [ "$acp_rc" -ne 0 ] || [ "$openai_rc" -ne 0 ] || [ "$tools_rc" -ne 0 ] ||
   [ "$http_baseline_rc" -ne 1 ] || [ "$http_new_rc" -ne 1 ] || [ "$compare_rc" -ne 0 ]; then
  echo "demo: unexpected exit codes (suite $suite_rc, expected 0; failing $failing_rc, expected 1; acp $acp_rc, expected 0; openai $openai_rc, expected 0; tools $tools_rc, expected 0; http baseline $http_baseline_rc and new $http_new_rc, expected 1; compare $compare_rc, expected 0)"
  exit 1
fi
echo "demo: the suite passed and the failing example failed, as expected"
