# ananke compare on two recordings made with --repeat 10 against the
# scenario's two agents (/agent and /agent-new on the case's mock): a
# significant drop (drop: 10/10 -> 2/10) is a regression and gates; noise
# (noise: 10/10 -> 9/10) is reported "not significant" and does not gate,
# unless --gate-on any-drop; --max-slowdown flags the case whose median
# duration (slow) or token usage (tokens) grew beyond it. Single-run
# recordings get no "stats" (today's report).
set -euo pipefail
fail() { echo "$*"; exit 1; }
rec="$OUT/rec"
rm -rf "$rec"
record() { # NAME SIDE-PATH REPEAT...
  (cd suite && CMP_SIDE=$2 "$ANANKE" run "${@:3}" --record "$rec/$1" . >"$rec.$1.log" 2>&1) || true
  [ -f "$rec/$1/results.json" ] || { cat "$rec.$1.log"; fail "no recording $1"; }
}
record base "" --repeat 10
record new -new --repeat 10
B="$rec/base" N="$rec/new"
jq -e '[.tests[] | {(.name): .passes}] | add == {"drop": 2, "noise": 9, "slow": 10, "steady": 10, "tokens": 10}' \
  "$N/results.json" >/dev/null || fail "new recording: $(jq -c '[.tests[] | {(.name): .passes}]' "$N/results.json")"

# --- default: only the significant drop gates ------------------------------
set +e
"$ANANKE" compare "$B" "$N" -o "$OUT/p1" --fail-on require_approval >"$OUT/c1.stdout" 2>"$OUT/c1.stderr"; rc=$?
set -e
[ $rc = 1 ] || fail "default gate: exit $rc, want 1: $(cat "$OUT/c1.stdout" "$OUT/c1.stderr")"
grep -qx 'REGRESSION drop: 10/10 -> 2/10 runs passed, significant (p = 0.000357 one-sided, alpha 0.05), gate require_approval' "$OUT/c1.stdout"
grep -qx 'DROP       noise: 10/10 -> 9/10 runs passed, not significant (p = 0.5 one-sided, alpha 0.05)' "$OUT/c1.stdout"
grep -qx 'compare: 5 cases, 1 regression, 0 improvements; gate: 0 block, 1 require_approval' "$OUT/c1.stdout"
grep -qx '1 case reached the --fail-on require_approval gate' "$OUT/c1.stdout"
R="$OUT/p1/compare-report.json"
item() { jq -c --arg id "$1" '.items[] | select(.case_id == $id)' "$R"; }
want() { item "$1" | jq -e "$2" >/dev/null || fail "$1: not $2: $(item "$1")"; }
# the stats object, exactly these members
want drop '.stats | keys == ["alpha", "baseline", "new", "p_value", "significant"]'
want drop '.stats.baseline | keys == ["ci_high", "ci_low", "pass_rate", "passes", "runs"]'
want drop '.stats | .significant == true and .alpha == 0.05 and (.p_value - 0.0003572279114 | fabs) < 1e-12'
want drop '.stats.baseline | .runs == 10 and .passes == 10 and .pass_rate == 1 and .ci_high == 1 and (.ci_low - 0.7224672001 | fabs) < 1e-9'
want drop '.stats.new | .runs == 10 and .passes == 2 and (.pass_rate - 0.2 | fabs) < 1e-12 and (.ci_low - 0.0566821515 | fabs) < 1e-9 and (.ci_high - 0.5098375285 | fabs) < 1e-9'
want drop '.change == "regression" and .gate_recommendation == "require_approval" and .risk_tags == ["regression"]'
want noise '.stats | .significant == false and .p_value == 0.5'
want noise '.change == "none" and .gate_recommendation == "none" and .risk_tags == ["not_significant"]'
want steady '.stats.p_value == 1 and .change == "none" and .gate_recommendation == "none"'
want steady '.medians | .max_slowdown == null and .duration_ms.flagged == false and .total_tokens == null'
want tokens '.medians.total_tokens | .baseline == 100 and .new == 5000 and .difference == 4900 and .ci_low == 4900 and .flagged == false'
jq -e '.summary.regressions == 1' "$R" >/dev/null
# the evidence pack shows them
grep -q 'class="stats ' "$OUT/p1/report.html" || fail "report.html shows no stats"
grep -q '10/10 &#8594; 2/10 runs passed, p = 0.000357 (one-sided, worse): significant at alpha 0.05' "$OUT/p1/report.html" || fail "report.html lacks drop's counts"
grep -q 'not significant' "$OUT/p1/case-noise.html" || fail "case-noise.html lacks the verdict"
grep -q 'p = 0.000357' "$OUT/p1/case-drop.html" || fail "case-drop.html lacks the p-value"

# --- --gate-on any-drop: both drops gate -----------------------------------
set +e
"$ANANKE" compare "$B" "$N" -o "$OUT/p2" --gate-on any-drop --fail-on require_approval >"$OUT/c2.stdout" 2>&1; rc=$?
set -e
[ $rc = 1 ] || fail "any-drop: exit $rc"
grep -qx 'REGRESSION noise: 10/10 -> 9/10 runs passed, not significant (p = 0.5 one-sided, alpha 0.05), gate require_approval' "$OUT/c2.stdout"
grep -qx '2 cases reached the --fail-on require_approval gate' "$OUT/c2.stdout"
R="$OUT/p2/compare-report.json"
want noise '.change == "regression" and .gate_recommendation == "require_approval" and .risk_tags == ["regression", "not_significant"]'

# --- a stricter --alpha: the drop stays significant; 1e-4 makes it noise ----
set +e
"$ANANKE" compare "$B" "$N" -o "$OUT/p3" --alpha 0.0001 --fail-on require_approval >"$OUT/c3.stdout" 2>&1; rc=$?
set -e
[ $rc = 0 ] || fail "--alpha 0.0001: exit $rc: $(cat "$OUT/c3.stdout")"
grep -qx 'DROP       drop: 10/10 -> 2/10 runs passed, not significant (p = 0.000357 one-sided, alpha 0.0001)' "$OUT/c3.stdout"
R="$OUT/p3/compare-report.json"
want drop '.stats | .alpha == 0.0001 and .significant == false and (.baseline.ci_low < 0.5)'

# --- --max-slowdown: the slow and the token-hungry case are flagged ---------
set +e
"$ANANKE" compare "$B" "$N" -o "$OUT/p4" --max-slowdown 1000% --fail-on require_approval >"$OUT/c4.stdout" 2>&1; rc=$?
set -e
[ $rc = 1 ] || fail "--max-slowdown: exit $rc"
grep -q '^SLOWER     slow: 10/10 -> 10/10 runs passed, not significant (p = 1, alpha 0.05), median duration beyond --max-slowdown, gate require_approval$' "$OUT/c4.stdout"
grep -q '^SLOWER     tokens: 10/10 -> 10/10 runs passed, not significant (p = 1, alpha 0.05), median token usage beyond --max-slowdown, gate require_approval$' "$OUT/c4.stdout"
R="$OUT/p4/compare-report.json"
want slow '.medians | .max_slowdown == 10 and .duration_ms.flagged == true and .duration_ms.ci_low >= 140'
want slow '.gate_recommendation == "require_approval" and .risk_tags == ["slowdown"] and .change == "none"'
want tokens '.medians.total_tokens.flagged == true and .risk_tags == ["slowdown"]'
want drop '.medians.total_tokens == null'

# --- the reports hold to schema/compare-report.schema.json ---------------------
if command -v node >/dev/null && [ -d ../../schema/node_modules/ajv ]; then
  COMPARE_REPORTS="$OUT/p1/compare-report.json:$OUT/p2/compare-report.json:$OUT/p4/compare-report.json" \
    node ../../schema/check.mjs >"$OUT/schema.out" 2>&1 || fail "schema: $(grep '^FAIL' "$OUT/schema.out")"
  grep -q 'p4/compare-report.json valid (compare-report schema)' "$OUT/schema.out"
fi

# --- bad values ---------------------------------------------------------------
for bad in "--alpha 0" "--alpha 0.7" "--alpha x" "--gate-on sometimes" "--max-slowdown -1" "--max-slowdown 5x"; do
  set +e
  # shellcheck disable=SC2086
  "$ANANKE" compare "$B" "$N" -o "$OUT/bad" $bad >"$OUT/bad.out" 2>&1; rc=$?
  set -e
  [ $rc = 2 ] || fail "$bad: exit $rc, want 2"
  grep -q "^ananke: ${bad%% *} takes" "$OUT/bad.out" || fail "$bad: $(cat "$OUT/bad.out")"
done

# --- single runs: no stats, today's verdict ------------------------------------
record base1 "" --repeat 1
record new1 -new
"$ANANKE" compare "$rec/base1" "$rec/new1" -o "$OUT/p5" >"$OUT/c5.stdout" 2>&1
R="$OUT/p5/compare-report.json"
jq -e '[.items[] | has("stats") or has("medians")] | any | not' "$R" >/dev/null || fail "single runs got stats"
# a one-run side against a repeated one is not "repeated on both sides"
"$ANANKE" compare "$B" "$rec/new1" -o "$OUT/p6" >"$OUT/c6.stdout" 2>&1
jq -e '[.items[] | has("stats")] | any | not' "$OUT/p6/compare-report.json" >/dev/null || fail "one repeated side got stats"
echo ok
