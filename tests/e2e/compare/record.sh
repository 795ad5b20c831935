#!/usr/bin/env bash
# Two recorded runs of suite/ in the format of docs/record.md, for the
# compare tests (this case's check.sh, tests/schema, tests/browser):
#   OUT/base  every test but "new feature" against base.yaml
#   OUT/new   every test but "legacy report" against new.yaml
# Each holds run.json, results.json and tests/<slug>/{result.json,frames.jsonl}
# (frames empty; compare calls a case whose frames.jsonl is missing broken);
# OUT/new's token_echo frames carry the secret, as a leaky recorder would.
# Needs $ANANKE, $MOCK and $CMP_E2E_TOKEN. Usage: record.sh OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
: "${CMP_E2E_TOKEN:?export CMP_E2E_TOKEN first}"
sed "s/@TOKEN@/$CMP_E2E_TOKEN/" "$here/new.yaml" >"$out/new.scenario.yaml"

record() { # NAME SCENARIO TEST_FILE...
  local name=$1 scen=$2 pid
  shift 2
  rm -rf "${out:?}/$name" "$out/$name.port"
  mkdir -p "$out/$name"
  "$MOCK" agui --scenario "$scen" --port-file "$out/$name.port" >"$out/$name.mock.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do [ -s "$out/$name.port" ] && break; sleep 0.05; done
  [ -s "$out/$name.port" ] || { kill "$pid"; cat "$out/$name.mock.log"; exit 1; }
  local rc=0
  (cd "$here/suite" && ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$out/$name.port")/agent" \
     "$ANANKE" run "$@" -r json:"$out/$name/results.json" >"$out/$name.run.log" 2>&1) || rc=$?
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -f "$out/$name.port"
  [ "$rc" -le 1 ] || { cat "$out/$name.run.log"; exit 1; }
  jq --arg id "$name-run-id" --argjson paths "$(printf '%s\n' "$@" | jq -R . | jq -s .)" '
    {format: "ananke-record/1", run_id: $id, ananke_version: .ananke,
     config: {path: "ananke.config.yaml", sha256: null},
     target: {type: "agui", endpoint: "${ENV.ANANKE_MOCK_URL}", agentId: "shop", timeout_ms: 3000,
              headers: {Authorization: "Bearer ${ENV.CMP_E2E_TOKEN}"}},
     started_at: "2026-11-22T10:00:00.000Z", ended_at: "2026-11-22T10:00:03.210Z",
     selection: {paths: $paths, filter: null, shard: null},
     options: {parallel: 1, repeat: 1, retries: 0, timeout_ms: null, seed: null},
     tests: [.tests[] | {name, id, file, slug: (.name | gsub("[^A-Za-z0-9._-]"; "_")), status}]}' \
    "$out/$name/results.json" >"$out/$name/run.json"
  local n i slug
  n=$(jq '.tests | length' "$out/$name/run.json")
  for ((i = 0; i < n; i++)); do
    slug=$(jq -r ".tests[$i].slug" "$out/$name/run.json")
    mkdir -p "$out/$name/tests/$slug"
    jq ".tests[$i]" "$out/$name/results.json" >"$out/$name/tests/$slug/result.json"
    : >"$out/$name/tests/$slug/frames.jsonl"
  done
}

record base "$here/base.yaml" a-checkout.test.yaml b-refund.test.yaml c-greeting.test.yaml \
  d-legacy.test.yaml e-status.test.yaml f-support.test.yaml h-leak.test.yaml
record new "$out/new.scenario.yaml" a-checkout.test.yaml b-refund.test.yaml c-greeting.test.yaml \
  e-status.test.yaml f-support.test.yaml g-feature.test.yaml h-leak.test.yaml
# the run redacted the echoed secret in its report; put it back, as a leaky
# recorder (or an older ananke) would have left it, for compare to find
sed -i "s/\[redacted\]/Bearer $CMP_E2E_TOKEN/g" "$out/new/results.json" \
  "$out/new/tests/token_echo/result.json"
printf '{"turn": 1, "t_ms": 3, "data": "{\\"type\\":\\"RUN_STARTED\\",\\"note\\":\\"Bearer %s\\"}"}\n' \
  "$CMP_E2E_TOKEN" >"$out/new/tests/token_echo/frames.jsonl"
echo '[{"what": "header Authorization", "file": "results.json", "count": 0}]' >"$out/base/redactions.json"
rm -f "$out/new.scenario.yaml"
