#!/usr/bin/env bash
# The action's run step: `ananke run` with the user's arguments and the
# action's reporters, the Markdown report appended to $GITHUB_STEP_SUMMARY,
# the outputs written to $GITHUB_OUTPUT; with a baseline, `ananke compare`
# of the baseline and this run. Exits with the exit code of `ananke run`
# (a compare that fails is reported, not hidden: exit 2 when the run passed).
#   ANANKE_ARGS        arguments for `ananke run`, split on whitespace
#   ANANKE_BASELINE    a recorded run (`--record DIR`), optional
#   ANANKE_REPORT_DIR  where the reports go (default ananke-report)
#   ANANKE_BIN         the ananke to run (default: ananke on PATH)
set -uo pipefail
bin=${ANANKE_BIN:-ananke}
dir=${ANANKE_REPORT_DIR:-ananke-report}
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
rm -rf "$dir/html" "$dir/record" "$dir/compare"
rm -f "$dir/report.md" "$dir/junit.xml" "$dir/results.json"
mkdir -p "$dir"
read -r -a args <<<"${ANANKE_ARGS:-}"
rec=()
[ -n "${ANANKE_BASELINE:-}" ] && rec=(--record "$dir/record")
"$bin" run "${args[@]}" "${rec[@]}" \
  -r "markdown:$dir/report.md" -r "junit:$dir/junit.xml" \
  -r "json:$dir/results.json" -r "html:$dir/html"
rc=$?
out() { printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; }
out report-dir "$dir"
for k in total passed failed errors; do
  v=
  [ -s "$dir/results.json" ] && v=$(jq -r ".summary.$k // empty" "$dir/results.json" 2>/dev/null)
  out "$k" "$v"
done
if [ -s "$dir/report.md" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$dir/report.md" >>"$GITHUB_STEP_SUMMARY"
fi
regressions=
if [ -n "${ANANKE_BASELINE:-}" ]; then
  if [ -d "$dir/record" ] && "$bin" compare "$ANANKE_BASELINE" "$dir/record" -o "$dir/compare"; then
    regressions=$(jq -r '.summary.regressions' "$dir/compare/compare-report.json")
  else
    echo "ananke action: compare with the baseline '$ANANKE_BASELINE' failed" >&2
    [ "$rc" -eq 0 ] && rc=2
  fi
fi
out regressions "$regressions"
out exit-code "$rc"
exit "$rc"
