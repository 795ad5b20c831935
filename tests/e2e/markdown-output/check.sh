set -e
M="$OUT/report.md"
head -n 1 "$M" | grep -qx '# ananke test report'
grep -qx '| Total | Passed | Failed | Skipped | Errors | Pass rate | Duration |' "$M"
grep -Eq '^\| 3 \| 2 \| 0 \| 1 \| 0 \| 100\.0% \| [0-9]+ms \|$' "$M"
grep -q 'Skipped tests are left out of the pass rate.' "$M"
# nothing failed: no failure section
! grep -q '^## Failed' "$M"
# the passed tests with their durations, pipes and emphasis escaped in the cells
grep -qx '## Passed tests' "$M"
# and what every report shows of a test: tool calls, turns, ttft, tokens, cost
grep -Eq '^\| \\\[ok\\\] greets \| markdown-output/cases\.jsonl \| [0-9]+ms \| 0 \| 1 \| [0-9]+ms \| - \| - \|$' "$M"
grep -Eq '^\| a \\\| b \\\*c\\\* \| markdown-output/pipes\.test\.yaml \| [0-9]+ms \| 0 \| 1 \| [0-9]+ms \| - \| - \|$' "$M"
grep -qx '## Skipped tests' "$M"
grep -qx '| \\\[later\\\] not \\| yet | markdown-output/cases.jsonl |  |' "$M"  # no reason given
# every table row has as many unescaped pipes as its header
awk '/^\|/ { line = $0; gsub(/\\\|/, "", line); n = gsub(/\|/, "", line)
             if (/^\| Test \| File \| Duration/) want = n; else if (/^\| Test \| File \| Reason \|$/) want = n
             else if (want && n != want) { print "bad row: " $0; exit 1 } }
     /^$/ { want = 0 }' "$M"
