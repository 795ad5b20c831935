#!/usr/bin/env bash
# JSON Schemas (schema/*.schema.json) against every example and accepted
# end-to-end file, the malformed ones, what `ananke init` writes, and
# `ananke validate`'s verdict on a table of small cases.
# Needs node and the npm packages of package.json (scripts/setup.sh installs them).
# Ends with "schema: N passed, N failed".
set -uo pipefail
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
node "$here/check.mjs"
