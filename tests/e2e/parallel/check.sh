# the same suite one at a time: reports and console identical but for timings
# (and the ids the mock hands out in arrival order, also inside the rebuilt messages)
set -e
"$ANANKE" run . --reporter json:out/seq.json > out/seq.stdout 2>&1 || true
norm() { jq 'del(.started_ms, .ended_ms, .duration_ms, .options.parallel)
  | .tests[] |= (del(.start_ms, .duration_ms, .metrics.duration_ms, .metrics.ttft_ms)
  | .transcript |= (del(.start_ms, .end_ms)
    | .turns[] |= del(.start_ms, .end_ms, .first_event_ms, .first_text_ms, .run_id, .messages)
    | .tool_calls[] |= del(.id, .start_ms, .timestamp, .result_ms)))' "$1"; }
diff <(norm out/seq.json) <(norm out/par.json)
strip() { sed -E 's/\([0-9.]+m?s\)//; s/in [0-9.]+s$//' "$1"; }
diff <(strip out/seq.stdout) <(strip out/stdout)
# really concurrent: one at a time the 3 slow tests alone take 450 ms; at -j 8 they overlap
[ $(( $(jq .duration_ms out/par.json) * 2 )) -lt "$(jq .duration_ms out/seq.json)" ]
# the same at -j 8 on three event loops (threads): still identical
"$ANANKE" run . -j 8 --loops 3 --reporter json:out/loops.json > out/loops.stdout 2>&1 || true
diff <(norm out/seq.json) <(norm out/loops.json)
diff <(strip out/seq.stdout) <(strip out/loops.stdout)
