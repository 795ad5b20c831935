#!/usr/bin/env bash
# The action's comment step: on a pull request, post ONE comment with the
# run's Markdown summary (and, with a baseline, the regressions from
# `ananke compare`), or update the comment an earlier run posted: it is found
# by the hidden marker on its first line. Elsewhere it does nothing.
#   GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY  set by GitHub
#   GITHUB_API_URL     the REST API (default https://api.github.com)
#   GITHUB_TOKEN       the token (the action's github-token input)
#   ANANKE_REPORT_DIR  the run step's report directory
# A failed API call is a warning, not a failure: the tests decide the job
# (a pull request from a fork gets a read-only token).
set -uo pipefail
marker='<!-- ananke-report -->'
dir=${ANANKE_REPORT_DIR:-ananke-report}
api=${GITHUB_API_URL:-https://api.github.com}
max=50000   # the report, at most: GitHub refuses a comment over 65536 characters
case "${GITHUB_EVENT_NAME:-}" in
  pull_request|pull_request_target) ;;
  *) echo "ananke action: not a pull request (${GITHUB_EVENT_NAME:-no event}): no comment"; exit 0 ;;
esac
pr=$(jq -r '.pull_request.number // empty' "${GITHUB_EVENT_PATH:-/dev/null}" 2>/dev/null)
case "$pr" in ''|*[!0-9]*) echo "::warning::ananke action: no pull request number in the event: no comment"; exit 0 ;; esac
repo=${GITHUB_REPOSITORY:-}
case "$repo" in */*) ;; *) echo "::warning::ananke action: GITHUB_REPOSITORY is not owner/name: no comment"; exit 0 ;; esac
[ -n "${GITHUB_TOKEN:-}" ] || { echo "::warning::ananke action: no github-token: no comment"; exit 0; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
body=$tmp/body.md
{
  echo "$marker"
  if [ -s "$dir/report.md" ]; then
    if [ "$(wc -c <"$dir/report.md")" -le "$max" ]; then
      cat "$dir/report.md"
    else # the totals only: a cut would leave a code block open
      awk 'NR > 1 && /^## / { exit } { print }' "$dir/report.md"
      echo
      echo "_The full report is too long for a comment: see the job summary and the ananke-report artifact._"
    fi
  else
    echo "# ananke test report"
    echo
    echo "ananke wrote no report: see the job's log."
  fi
  cmp=$dir/compare/compare-report.json
  if [ -s "$cmp" ]; then
    echo
    echo "## Regressions against the baseline"
    echo
    jq -r '
      def md: tostring | .[0:80] | gsub("[\r\n]+"; " ") | gsub("(?<c>[\\\\`*_\\[\\]<>|~&])"; "\\\(.c)");
      .summary as $s
      | "\($s.regressions) regressions, \($s.improvements) improvements (passed: \($s.baseline_pass) in the baseline, \($s.new_pass) now).",
        ( [.items[] | select(.change == "regression")] as $r
          | if ($r | length) == 0 then empty else
              "", "| Case | Baseline | Now | Root cause | Gate |", "|---|---|---|---|---|",
              ($r[:30][] | "| \(.case_id | md) | \(.baseline_status | md) | \(.new_status | md) | \(.new_root // "" | md) | \(.gate_recommendation // "" | md) |")
            end ),
        ( [.items[] | select(.change == "regression")] | length
          | if . > 30 then "", "and \(. - 30) more: see compare/report.html in the artifact." else empty end )' "$cmp"
    echo
  fi
} >"$body"

# the token goes to curl on its standard input, never on its command line
call() { # METHOD URL [BODYFILE] -> response in $tmp/resp, status printed
  local args=(-sS -o "$tmp/resp" -w '%{http_code}' -X "$1" -K - "$2"
              -H 'Accept: application/vnd.github+json' -H 'X-GitHub-Api-Version: 2022-11-28')
  [ $# -ge 3 ] && args+=(-H 'Content-Type: application/json' --data-binary "@$3")
  printf 'header = "Authorization: Bearer %s"\n' "$GITHUB_TOKEN" | curl "${args[@]}"
}
id=
for page in $(seq 1 30); do
  st=$(call GET "$api/repos/$repo/issues/$pr/comments?per_page=100&page=$page") || st=000
  [ "$st" = 200 ] || { echo "::warning::ananke action: listing the comments failed (HTTP $st): no comment"; exit 0; }
  id=$(jq -r --arg m "$marker" '[.[] | select((.body // "") | startswith($m))][0].id // empty' "$tmp/resp")
  [ -n "$id" ] && break
  [ "$(jq 'length' "$tmp/resp")" -lt 100 ] && break
done
jq -n --rawfile b "$body" '{body: $b}' >"$tmp/req.json"
if [ -n "$id" ]; then
  st=$(call PATCH "$api/repos/$repo/issues/comments/$id" "$tmp/req.json") || st=000
  [ "$st" = 200 ] && echo "ananke action: updated comment $id" ||
    echo "::warning::ananke action: updating comment $id failed (HTTP $st)"
else
  st=$(call POST "$api/repos/$repo/issues/$pr/comments" "$tmp/req.json") || st=000
  [ "$st" = 201 ] && echo "ananke action: commented on pull request #$pr" ||
    echo "::warning::ananke action: commenting failed (HTTP $st)"
fi
exit 0
