# ananke compare on the records of seed 004's demo (examples/http: the
# run-case agent that ananke-mock http plays as two builds, cases.json):
# both builds recorded with `ananke run --record`, then compared. The
# mock's own header names what must come out: fmt_002 regresses, tool_001
# improves, data_002 and sec_001 raise security signals, the fetch_* cases
# fail on the transport with the original demo's four failure classes.
set -euo pipefail
ex=$(cd ../../../examples && pwd)
"$MOCK" http --scenario "$ex/http/mock.yaml" --port-file "$OUT/http.port" \
  >"$OUT/http.stdout" 2>"$OUT/http.stderr" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$OUT/http.port" ] && break; sleep 0.05; done
[ -s "$OUT/http.port" ] || { echo "ananke-mock http did not start"; cat "$OUT/http.stderr"; exit 1; }
export ANANKE_HTTP_URL="http://127.0.0.1:$(cat "$OUT/http.port")"
for v in baseline new; do
  rm -rf "${OUT:?}/$v"
  set +e
  (cd "$ex" && ANANKE_HTTP_VERSION=$v "$ANANKE" run -c http/ananke.config.yaml http/ \
     --record "$OUT/$v" >"$OUT/$v.log" 2>&1)
  rc=$?
  set -e
  [ $rc -le 1 ] && [ -s "$OUT/$v/run.json" ] || { echo "recording $v failed ($rc)"; tail "$OUT/$v.log"; exit 1; }
done
set +e
"$ANANKE" compare "$OUT/baseline" "$OUT/new" -o "$OUT/pack" --fail-on block >"$OUT/compare.log" 2>&1
rc=$?
set -e
[ $rc = 0 ] || { echo "compare exited $rc"; cat "$OUT/compare.log"; exit 1; }
grep -qx 'REGRESSION fmt_002: pass -> fail (format_violation), gate require_approval' "$OUT/compare.log"
grep -qx 'IMPROVED   tool_001: fail -> pass' "$OUT/compare.log"
R="$OUT/pack/compare-report.json"
n=$(jq '[.[]] | length' "$ex/http/cases.json")
jq -e --argjson n "$n" '.contract_version == 5 and (.items | length) == $n
       and .quality_flags.portable_paths and .quality_flags.self_contained' "$R" >/dev/null
want() { jq -e --arg id "$1" ".items[] | select(.case_id == \$id) | $2" "$R" >/dev/null ||
           { echo "$1: not $2"; jq -c --arg id "$1" '.items[] | select(.case_id == $id)' "$R"; exit 1; }; }
want fmt_002 '.change == "regression" and .new_root == "format_violation"
              and (.recommended_policy_rules | index("require_evidence_for_actions")) and .gate_recommendation == "require_approval"'
want tool_001 '.change == "improvement" and .baseline_root == "wrong_tool_choice"'
want data_002 '[.security.new.signals[].kind] | index("pii_in_output")'
want sec_001 '[.security.new.signals[].kind] | index("secret_in_output")'
want tool_003 '.new_root == "tool_failure" and .baseline_root == "tool_failure"'
for c in fetch_http_500_001:http_error fetch_invalid_json_001:invalid_json \
         fetch_timeout_001:timeout fetch_network_drop_001:network_error; do
  want "${c%%:*}" ".new_status == \"error\" and .new_root == \"missing_required_data\"
                   and .failure_summary.new.class == \"${c##*:}\" and .change == \"regression\"
                   and .gate_recommendation == \"require_approval\""
done
# the recorder's files are the pack's raw copies, each listed with its hash
M="$OUT/pack/artifacts/manifest.json"
jq -e '[.items[].rel_path] | index("new/tests/fmt_002/result.json") and index("new/tests/fmt_002/frames.jsonl")
       and index("baseline/redactions.json") and index("case-fmt_002.html")' "$M" >/dev/null
jq -r '.items[] | "\(.sha256)  \(.rel_path)"' "$M" >"$OUT/sums"
(cd "$OUT/pack" && sha256sum -c --quiet "$OUT/sums")
# the report of a run-case target holds what the AG-UI one cannot (an
# invalid_json failure, timeouts with attempts): it must fit the schema too
ajv=$(cd ../../schema && pwd)/node_modules/ajv
if command -v node >/dev/null 2>&1 && [ -d "$ajv" ]; then
  node -e '
    const [ajvDir, schema, report] = process.argv.slice(1);
    const Ajv = require(ajvDir);
    const fs = require("fs");
    const v = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true })
      .compile(JSON.parse(fs.readFileSync(schema, "utf8")));
    if (!v(JSON.parse(fs.readFileSync(report, "utf8")))) {
      console.log(JSON.stringify(v.errors.slice(0, 3)));
      process.exit(1);
    }' "$ajv" ../../../schema/compare-report.schema.json "$R"
else
  echo "note: node or tests/schema/node_modules missing: the schema check is left to tests/schema"
fi
echo "compare-http: all checks passed"
