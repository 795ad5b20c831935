set -e
"$ANANKE" run . -j 3 --loops 3 --reporter json:out/r.json > out/int.stdout 2>&1 &
pid=$!
sleep 0.6
kill -INT $pid
start=$(date +%s%N)
set +e; wait $pid; rc=$?; set -e
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" = 130 ]
[ "$took" -lt 3000 ]
grep -q 'interrupted' out/int.stdout
jq -e '.tests[0].status == "pass"' out/r.json >/dev/null
jq -e '.tests[1].status == "error" and (.tests[1].error.message | test("interrupted"))' out/r.json >/dev/null
jq -e '.tests[2].status == "error"' out/r.json >/dev/null
! pgrep -f 'sleep 31' >/dev/null
