#!/usr/bin/env bash
# JSON Schemas (schema/*.schema.json) against every example and accepted
# end-to-end file, the malformed ones, what `ananke init` writes, and
# `ananke validate`'s verdict on a table of small cases.
# With ananke and ananke-mock built, also the compare-report.json that
# `ananke compare` writes for the recordings of tests/e2e/compare/record.sh
# (plain and with --redact) against schema/compare-report.schema.json.
# Needs node and the npm packages of package.json (scripts/setup.sh installs them).
# Ends with "schema: N passed, N failed".
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
if ! command -v node >/dev/null 2>&1; then
  echo "schema: node not found (install Node.js 18 or later)"
  echo "schema: 0 passed, 1 failed"; exit 1
fi
if [ ! -d "$here/node_modules/ajv" ] || [ ! -d "$here/node_modules/yaml" ]; then
  echo "schema: tests/schema/node_modules is missing: run scripts/setup.sh (or npm ci in tests/schema)"
  echo "schema: 0 passed, 1 failed"; exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -x "$B/ananke" ]; then
  export ANANKE="$B/ananke"
  "$ANANKE" init "$tmp/init" >/dev/null && export INIT_DIR="$tmp/init"
else
  echo "schema: $B/ananke not built; checking the schemas without ananke validate"
fi
if [ -x "$B/ananke" ] && [ -x "$B/ananke-mock" ] && command -v jq >/dev/null 2>&1; then
  if ANANKE="$B/ananke" MOCK="$B/ananke-mock" CMP_E2E_TOKEN=schema-token-6c1f0a9e \
       bash "$root/tests/e2e/compare/record.sh" "$tmp/rec" >"$tmp/record.log" 2>&1 &&
     "$B/ananke" compare "$tmp/rec/base" "$tmp/rec/new" -o "$tmp/cmp" >/dev/null 2>&1 &&
     "$B/ananke" compare "$tmp/rec/base" "$tmp/rec/new" -o "$tmp/cmp-red" --redact pii \
       --redact secrets >/dev/null 2>&1; then
    export COMPARE_REPORTS="$tmp/cmp/compare-report.json:$tmp/cmp-red/compare-report.json"
  else
    echo "schema: could not record and compare the runs of tests/e2e/compare:"
    sed 's/^/    /' "$tmp/record.log" | tail -n 20
    export COMPARE_REPORTS=""
  fi
fi
node "$here/check.mjs"
