# ananke compare on two recorded runs of suite/ (record.sh): a regression
# (checkout), an improvement (refund), a case missing on each side (legacy
# report, new feature), an errored case (order status), security signals
# (support answer), a secret echoed by the agent (token echo). Checks the
# items and gates, the exit codes with --fail-on, that the pack still
# resolves every link after a move, the manifest's hashes, that the secret
# and (with --redact) the PII are nowhere in the pack, and that the inputs
# are never touched.
set -euo pipefail
export CMP_E2E_TOKEN="tok-e2e-$$-a8f3c9d2e1"
rec="$OUT/rec"
bash ./record.sh "$rec"
B="$rec/base" N="$rec/new"
inputs_sum() { (cd "$rec" && find base new -type f -print0 | sort -z | xargs -0 sha256sum); }
inputs_sum >"$OUT/inputs.before"
fail() { echo "$*"; exit 1; }

# --- the report, and what the console says --------------------------------
set +e
"$ANANKE" compare "$B" "$N" -o "$OUT/pack" >"$OUT/c.stdout" 2>"$OUT/c.stderr"; rc=$?
set -e
[ $rc = 0 ] || fail "compare without --fail-on exited $rc: $(cat "$OUT/c.stderr")"
grep -qx 'REGRESSION checkout: pass -> fail (wrong_tool_choice), gate require_approval' "$OUT/c.stdout"
grep -qx 'IMPROVED   refund: fail -> pass' "$OUT/c.stdout"
grep -qx 'REGRESSION legacy report: pass -> missing (missing_case), gate require_approval' "$OUT/c.stdout"
grep -qx 'REGRESSION order status: pass -> error (missing_required_data), gate require_approval' "$OUT/c.stdout"
grep -qx 'compare: 8 cases, 3 regressions, 1 improvement; gate: 1 block, 4 require_approval' "$OUT/c.stdout"
grep -qx "compare report: $OUT/pack/compare-report.json" "$OUT/c.stdout"
grep -qx "html report: $OUT/pack/report.html" "$OUT/c.stdout"
[ "$(grep -c -e '^REGRESSION' -e '^IMPROVED' "$OUT/c.stdout")" = 4 ]

R="$OUT/pack/compare-report.json"
item() { jq -c --arg id "$1" '.items[] | select(.case_id == $id)' "$R"; }
want() { # CASE JQ-EXPR
  item "$1" | jq -e "$2" >/dev/null || fail "$1: not $2: $(item "$1")"
}
jq -e '.contract_version == 5 and (.items | length) == 8' "$R" >/dev/null
jq -e '.summary | .baseline_pass == 6 and .new_pass == 5 and .regressions == 3 and .improvements == 1
       and .cases_requiring_approval == 4 and .cases_block_recommended == 1
       and .root_cause_breakdown == {"wrong_tool_choice": 1, "missing_required_data": 1, "missing_case": 1}
       and .data_coverage == {"total_cases": 8, "items_emitted": 8, "missing_baseline_artifacts": 1,
                              "missing_new_artifacts": 1, "broken_baseline_artifacts": 0,
                              "broken_new_artifacts": 0}
       and .quality.redaction_status == "applied" and .quality.redaction_preset_id == "env_secrets"
       and .security.signal_counts_new.critical == 1' "$R" >/dev/null || fail "summary: $(jq -c .summary "$R")"
jq -e '.quality_flags | .portable_paths and .self_contained and .path_violations_count == 0
       and .missing_assets_count == 0 and .hrefs_checked > 50' "$R" >/dev/null
want checkout '.change == "regression" and .new_root == "wrong_tool_choice" and .gate_recommendation == "require_approval"
               and .risk_level == "medium" and .risk_tags == ["regression"] and .recommended_policy_rules == ["check_tool_choice"]
               and .preventable_by_policy'
want refund '.change == "improvement" and .baseline_root == "wrong_tool_choice" and (has("new_root") | not)
             and .gate_recommendation == "none" and .risk_level == "low"'
want greeting '.change == "none" and .gate_recommendation == "none" and .case_status == "executed"'
want "legacy report" '.new_status == "missing" and .data_availability.new.status == "missing"
                      and .data_availability.new.reason_code == "not_in_run" and .new_root == "missing_case"
                      and .gate_recommendation == "require_approval" and (.risk_tags | index("missing_new") and index("regression"))
                      and .trace_integrity.new.status == "broken" and (.artifacts | has("new_case_response_href") | not)'
want "new feature" '.baseline_status == "missing" and .baseline_root == "missing_case" and .new_pass
                    and .change == "none" and .gate_recommendation == "none"'
want "order status" '.new_status == "error" and .new_root == "missing_required_data" and .change == "regression"
                     and .failure_summary.new.class == "http_error" and .failure_summary.new.http_status == 503
                     and .data_availability.new.reason_code == "http_error"
                     and (.security.new.signals | map(.kind) == ["runner_failure_detected"])
                     and .artifacts.new_failure_summary_href == "assets/failure_summary/order_status/new.json"'
want "support answer" '.gate_recommendation == "block" and .risk_level == "high" and .change == "none"
                       and (.security.new.signals | map(.kind) | sort == ["high_risk_action", "pii_in_output",
                            "prompt_injection_marker", "secret_in_output", "untrusted_url_input"])
                       and (.security.new.signals[] | select(.kind == "prompt_injection_marker") | .severity == "critical"
                            and .details.tool == "kb_search")
                       and (.security.new.signals[] | select(.kind == "untrusted_url_input") | .details.urls == ["https://evil.example.com/x"])
                       and .security.baseline.signals == [] and .security.baseline.requires_gate_recommendation'
want "token echo" '.gate_recommendation == "require_approval" and (.risk_tags == ["secret_in_output"])'
# every evidence reference names a file of the manifest
jq -r '[.items[].security[].signals[].evidence_refs[].manifest_key] | unique[]' "$R" >"$OUT/keys"
jq -r '.items[].manifest_key' "$OUT/pack/artifacts/manifest.json" | sort >"$OUT/manifest.keys"
while read -r k; do grep -qxF "$k" "$OUT/manifest.keys" || fail "evidence key $k not in the manifest"; done <"$OUT/keys"

# --- the gate sets the exit code only when asked -----------------------------
set +e
"$ANANKE" compare "$B" "$N" -o "$OUT/p2" --fail-on require_approval >"$OUT/f1" 2>&1; r1=$?
"$ANANKE" compare "$B" "$N" -o "$OUT/p2" --fail-on block >"$OUT/f2" 2>&1; r2=$?
"$ANANKE" compare "$B" "$B" -o "$OUT/p3" --fail-on require_approval >"$OUT/f3" 2>&1; r3=$?
"$ANANKE" compare "$B" "$N" -o "$OUT/p2" --fail-on maybe >"$OUT/f4" 2>&1; r4=$?
"$ANANKE" compare "$B" "$N" >"$OUT/f5" 2>&1; r5=$?
"$ANANKE" compare "$B" "$OUT/nowhere" -o "$OUT/p4" >"$OUT/f6" 2>&1; r6=$?
"$ANANKE" compare "$B" "$N" -o "$N/report" >"$OUT/f7" 2>&1; r7=$?
"$ANANKE" compare "$B" "$N" -o "$rec" >"$OUT/f8" 2>&1; r8=$?
"$ANANKE" compare "$B" "$N" -o "$OUT/p2" --redact '(unclosed' >"$OUT/f9" 2>&1; r9=$?
set -e
[ "$r1 $r2 $r3 $r4 $r5 $r6 $r7 $r8 $r9" = "1 1 0 2 2 2 2 2 2" ] || fail "exit codes: $r1 $r2 $r3 $r4 $r5 $r6 $r7 $r8 $r9"
grep -q '5 cases reached the --fail-on require_approval gate' "$OUT/f1"
grep -q '1 case reached the --fail-on block gate' "$OUT/f2"
grep -qx 'compare: 7 cases, 0 regressions, 0 improvements; gate: 0 block, 0 require_approval' "$OUT/f3"
grep -q "refusing to write the report into '$N/report'" "$OUT/f7"
grep -q 'nowhere' "$OUT/f6"
grep -q -- '--redact' "$OUT/f9"
[ ! -e "$N/report" ]
mkdir -p "$OUT/busy" && echo keep >"$OUT/busy/mine.txt"
set +e; "$ANANKE" compare "$B" "$N" -o "$OUT/busy" >"$OUT/f10" 2>&1; r10=$?; set -e
[ $r10 = 2 ] && [ "$(cat "$OUT/busy/mine.txt")" = keep ] || fail "a non-empty directory was not refused"
# a second run replaces the previous report whole (no stale case pages)
touch "$OUT/p2/case-stale.html"
"$ANANKE" compare "$B" "$N" -o "$OUT/p2" >/dev/null
[ ! -e "$OUT/p2/case-stale.html" ] && [ -s "$OUT/p2/report.html" ]

# --- portable: moved elsewhere, every link still resolves inside -----------
mkdir -p "$OUT/moved"
mv "$OUT/pack" "$OUT/moved/elsewhere"
P="$OUT/moved/elsewhere"
root=$(cd "$P" && pwd -P)
check_link() { # FROM HREF
  local h=${2%%#*}
  [ -n "$h" ] || return 0
  case "$h" in /* | *://* | *\\* | ../* | */../* | *..) fail "$1: not portable: $2" ;; esac
  local abs
  abs=$(realpath -m "$root/$h")
  case "$abs" in "$root"/*) ;; *) fail "$1: $2 leaves the pack" ;; esac
  [ -f "$abs" ] || fail "$1: $2 does not exist in the pack"
}
n=0
while read -r h; do check_link compare-report.json "$h"; n=$((n + 1)); done \
  < <(jq -r '.. | objects | to_entries[] | select(.key | endswith("_href")) | .value' "$P/compare-report.json")
[ $n -gt 40 ] || fail "only $n hrefs in compare-report.json"
n=0
for page in "$P"/*.html; do
  while read -r h; do check_link "$(basename "$page")" "$h"; n=$((n + 1)); done \
    < <(grep -o -E '(href|src)="[^"]*"' "$page" | sed -E 's/^(href|src)="//; s/"$//; s/&amp;/\&/g')
done
[ $n -gt 100 ] || fail "only $n links in the pages"
[ "$(ls "$P"/case-*.html | wc -l)" = 8 ]
grep -q 'data-manifest-key="checkout/replay_diff"' "$P/report.html"
grep -q '<script id="embedded-manifest-index" type="application/json">{"manifest_version":"v1"' "$P/report.html"

# --- the manifest lists every other file, with its real size and hash -------
M="$P/artifacts/manifest.json"
jq -e '.manifest_version == "v1" and (.generated_at | type == "number")' "$M" >/dev/null
(cd "$P" && find . -type f ! -path ./artifacts/manifest.json | sed 's#^\./##' | sort) >"$OUT/files"
jq -r '.items[].rel_path' "$M" | sort >"$OUT/listed"
diff "$OUT/files" "$OUT/listed" || fail "manifest and files differ"
jq -r '.items[] | "\(.sha256)  \(.rel_path)"' "$M" >"$OUT/sums"
(cd "$P" && sha256sum -c --quiet "$OUT/sums") || fail "a sha256 in the manifest is wrong"
jq -r '.items[] | "\(.bytes) \(.rel_path)"' "$M" | while read -r bytes f; do
  [ "$(stat -c %s "$P/$f")" = "$bytes" ] || fail "bytes of $f"
done
[ "$(jq '[.items[].manifest_key] | unique | length' "$M")" = "$(jq '.items | length' "$M")" ]
# raw copies of what compare read, derived assets, repro
for f in baseline/run.json new/run.json baseline/results.json baseline/redactions.json \
         new/tests/token_echo/frames.jsonl baseline/tests/checkout/result.json \
         assets/final_output/checkout/new.json repro/ananke.config.yaml repro/checkout.json; do
  [ -s "$P/$f" ] || fail "missing $f"
done
jq -e '.command == "ananke run -c repro/ananke.config.yaml --filter '"'"'^checkout$'"'"' '"'"'a-checkout.test.yaml'"'"'"' \
  "$P/repro/checkout.json" >/dev/null || fail "repro: $(jq -c .command "$P/repro/checkout.json")"
grep -qF 'Authorization":"Bearer ${ENV.CMP_E2E_TOKEN}"' "$P/repro/ananke.config.yaml"
(cd suite && "$ANANKE" validate -c "$P/repro/ananke.config.yaml" a-checkout.test.yaml >/dev/null)

# --- secrets and markup -----------------------------------------------------
grep -rqF "$CMP_E2E_TOKEN" "$rec/new" || fail "the test's input lost its secret: nothing is checked"
! grep -rlF "$CMP_E2E_TOKEN" "$P" "$OUT/p2" || fail "the secret is in the pack"
grep -q '\[redacted\]' "$P/new/tests/token_echo/frames.jsonl"
jq -e '.total >= 3 and .rules[0].source == "env:CMP_E2E_TOKEN"
       and (.touched_files | map(.rel_path) | index("new/results.json"))' "$P/artifacts/redaction-summary.json" >/dev/null
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$P/case-checkout.html"
grep -qF '<script>alert' "$P/case-checkout.html" && fail "agent markup reached the page unescaped"
grep -q 'missing on the new side' "$P/case-legacy_report.html"
grep -q 'missing on the baseline side' "$P/case-new_feature.html"
grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$P/report.html"

# --- --redact pii secrets: scrubbed everywhere, counted -----------------------
"$ANANKE" compare "$B" "$N" -o "$OUT/red" --redact pii --redact secrets >/dev/null
for s in jane.doe@example.com 555-123-4567 sk-abcdefghijklmnop12345 "$CMP_E2E_TOKEN"; do
  ! grep -rlF -- "$s" "$OUT/red" || fail "--redact left $s in the pack"
done
jq -e '.summary.quality == {"transfer_class": "internal_only", "redaction_status": "applied",
                            "redaction_preset_id": "pii+secrets"}
       and .quality_flags.portable_paths and .quality_flags.self_contained' "$OUT/red/compare-report.json" >/dev/null
jq -e '.categories.email >= 1 and .categories.phone >= 1 and .categories.openai_key >= 1
       and (.touched_files | map(.rel_path) | index("case-support_answer.html") and index("new/results.json"))' \
  "$OUT/red/artifacts/redaction-summary.json" >/dev/null || fail "redaction summary: $(cat "$OUT/red/artifacts/redaction-summary.json")"
# the verdicts were made before redaction
item() { jq -c --arg id "$1" '.items[] | select(.case_id == $id)' "$OUT/red/compare-report.json"; }
want "support answer" '.gate_recommendation == "block"'

# --- the inputs were only read ---------------------------------------------
inputs_sum >"$OUT/inputs.after"
diff "$OUT/inputs.before" "$OUT/inputs.after" || fail "compare modified its inputs"
echo "compare e2e: all checks passed"
