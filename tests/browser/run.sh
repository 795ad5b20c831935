#!/usr/bin/env bash
# The HTML report in a real browser: headless Chromium (Debian's `chromium`)
# driven by playwright-core (npm, pinned in package.json; it downloads no
# browser).
#
#   1. report  ananke-mock agui plays scenario.yaml on 127.0.0.1; `ananke run
#              --reporter html:out/report` runs suite/ against it (a pass, a
#              fail whose agent answers <script> markup, an error); then
#              check-report.mjs loads out/report/index.html and checks it
#              against suite.expect.json; screenshot: out/report.png
#   2. fixture the report the unit test builds by hand (test_report_html with
#              ANANKE_HTML_OUT): repeats, retries, warnings, invalid UTF-8;
#              checked against fixture.expect.json; screenshot: out/fixture.png
#   3. compare the two recordings of tests/e2e/compare/record.sh (the new
#              agent answers <script>alert(1)</script>) compared with `ananke
#              compare`; check-compare.mjs loads report.html and a case page;
#              screenshots: out/compare-report.png, out/compare-case.png
#   4. view    `ananke view` over a history of three runs (view.sh, check-view.mjs);
#              screenshots: out/view-*.png
#
# Needs /usr/bin/chromium, node and tests/browser/node_modules (scripts/setup.sh
# installs all three); without them this fails, it does not skip. Every step
# is bounded by `timeout`. Last line: "browser: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
root=$tests_root
B=$tests_build
export NO_COLOR=1
pass=0 fail=0 suite=browser # ok, bad, finish, broken: tests/lib.sh

[ -x /usr/bin/chromium ] || broken "/usr/bin/chromium missing: run scripts/setup.sh (Debian package chromium)"
need_node "check-report.mjs is a Node program"
[ -f "$here/node_modules/playwright-core/package.json" ] ||
  broken "tests/browser/node_modules/playwright-core missing: run scripts/setup.sh (npm ci in tests/browser)"
[ -x "$B/ananke" ] || broken "$B/ananke not built (make build)"
[ -x "$B/ananke-mock" ] || broken "$B/ananke-mock not built (make build)"

out="$here/out"
rm -rf "$out"; mkdir -p "$out"

mock_pid=""
stop_mock() {
  stop_pids "$mock_pid"
  mock_pid=""
}
trap stop_mock EXIT

# check-report NAME HTML EXPECT PNG: the browser checks, each counted.
browse() {
  local name=$1 html=$2 expect=$3 png=$4 log rc n
  log="$out/$name.check.log"
  timeout -k 5 180 node "$here/check-report.mjs" "$html" "$expect" "$png" >"$log" 2>&1
  rc=$?
  sed "s/^/[$name] /" "$log"
  n=$(grep -c '^ok ' "$log"); pass=$((pass + n))
  n=$(grep -c '^FAIL ' "$log"); fail=$((fail + n))
  # a crash or a timeout counts even when no check line said FAIL
  if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
    bad "$name: check-report.mjs exited $rc"
  fi
}

# --- 1. a report written by `ananke run` against the mock -----------------
# The mock lives at most 5 minutes whatever happens to this script.
spawn_server "$out/port" 0.05 "$out/mock.stdout" "$out/mock.stderr" \
  timeout -k 5 300 "$B/ananke-mock" agui --scenario "$here/scenario.yaml" --port-file "$out/port"
started=$?
mock_pid=$spawned_pid
if [ "$started" -eq 0 ]; then
  ok "mock agent started on 127.0.0.1"
  export ANANKE_MOCK_URL="http://127.0.0.1:$(tr -d '[:space:]' <"$out/port")/agent"
  (cd "$here/suite" && timeout -k 5 120 "$B/ananke" run . --reporter "html:$out/report") \
    >"$out/run.log" 2>&1
  rc=$?
  stop_mock
  if [ "$rc" -eq 1 ]; then
    ok "ananke run exits 1 (one fail, one error)"
  else
    bad "ananke run exits 1 (one fail, one error): got $rc"
    sed 's/^/    /' "$out/run.log" | head -n 20
  fi
  if [ -s "$out/report/index.html" ]; then
    ok "ananke run wrote out/report/index.html"
    browse report "$out/report/index.html" "$here/suite.expect.json" "$out/report.png"
  else
    bad "ananke run wrote out/report/index.html"
  fi
else
  sed 's/^/    /' "$out/mock.stderr"
  stop_mock
  bad "mock agent started on 127.0.0.1 (no port within 5 s)"
fi

# --- 2. the unit test's hand-built report ---------------------------------
if [ -x "$B/test_report_html" ]; then
  if (cd "$root" && ANANKE_HTML_OUT="$out/fixture" timeout -k 5 60 "$B/test_report_html") \
      >"$out/fixture.unit.log" 2>&1 && [ -s "$out/fixture/index.html" ]; then
    ok "test_report_html wrote out/fixture/index.html"
    browse fixture "$out/fixture/index.html" "$here/fixture.expect.json" "$out/fixture.png"
  else
    bad "test_report_html wrote out/fixture/index.html"
    sed 's/^/    /' "$out/fixture.unit.log" | tail -n 20
  fi
else
  bad "$B/test_report_html not built (cmocka missing? run scripts/setup.sh)"
fi

# --- 3. an `ananke compare` evidence pack ----------------------------------
if command -v jq >/dev/null 2>&1 &&
   ANANKE="$B/ananke" MOCK="$B/ananke-mock" CMP_E2E_TOKEN=browser-token-5e2d7c41 \
     timeout -k 5 120 bash "$root/tests/e2e/compare/record.sh" "$out/compare-rec" \
     >"$out/compare-record.log" 2>&1 &&
   timeout -k 5 60 "$B/ananke" compare "$out/compare-rec/base" "$out/compare-rec/new" \
     -o "$out/compare" >"$out/compare.log" 2>&1; then
  ok "ananke compare wrote out/compare/report.html"
  log="$out/compare.check.log"
  timeout -k 5 180 node "$here/check-compare.mjs" "$out/compare" case-checkout.html checkout "$out" \
    >"$log" 2>&1
  rc=$?
  sed "s/^/[compare] /" "$log"
  n=$(grep -c '^ok ' "$log"); pass=$((pass + n))
  n=$(grep -c '^FAIL ' "$log"); fail=$((fail + n))
  if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
    bad "compare: check-compare.mjs exited $rc"
  fi
else
  bad "ananke compare wrote out/compare/report.html (needs jq; see out/compare-record.log, out/compare.log)"
  tail -n 20 "$out/compare-record.log" "$out/compare.log" 2>/dev/null | sed 's/^/    /'
fi

# shellcheck source=view.sh
. "$here/view.sh"
# shellcheck source=comply.sh
. "$here/comply.sh"

finish
