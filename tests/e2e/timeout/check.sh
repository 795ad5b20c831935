set -e
jq -e '.tests[0].timed_out and .tests[2].timed_out' out/results.json >/dev/null
jq -e '.tests[0].transcript.turns[0].text == "thinking..."' out/results.json >/dev/null
# the stalled tests did not hold up the run: well under the 20 s hook
jq -e '.duration_ms < 5000' out/results.json >/dev/null
# the hook's sleep was killed
! pgrep -xf 'sleep 20' >/dev/null  # exactly: not another run's 'sleep 200'
