set -e
jq -e '.tests[0].timed_out and .tests[2].timed_out' out/results.json >/dev/null
jq -e '.tests[0].transcript.turns[0].text == "thinking..."' out/results.json >/dev/null
# the stalled tests did not hold up the run: well under the 20 s hook
jq -e '.duration_ms < 5000' out/results.json >/dev/null
# the hook's sleep was killed
! pgrep -xf 'sleep 20' >/dev/null  # exactly: not another run's 'sleep 200'
# on a terminal the progress line keeps moving while the stalled test, first
# in the order, holds back the console lines: its clock runs on and the two
# quick tests show as passed before the stalled one is printed (three loops,
# one test each)
script -qec "$ANANKE run . --timeout 600ms -j 3 --loops 3" /dev/null > "$OUT/tty" 2>&1 || true
at() { grep -boE "$1" "$OUT/tty" | head -n1 | cut -d: -f1; }
p=$(at '\[2/4\] 2 passed, 0 failed, 0 errors, 2 running, 0\.[2-5]s') l=$(at 'stalled agent')
[ -n "$p" ] && [ -n "$l" ] && [ "$p" -lt "$l" ]
