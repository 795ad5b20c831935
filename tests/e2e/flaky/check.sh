set -e
jq -e '.tests | length == 1' out/r.json >/dev/null
jq -e '.tests[0] | .runs == 5 and .passes == 3 and .stability == "unstable" and .status == "fail"' out/r.json >/dev/null
jq -e '[.tests[0].attempts[].status] | sort == ["fail","fail","pass","pass","pass"]' out/r.json >/dev/null
[ "$(grep -c '<testcase ' out/j.xml)" = 1 ]
grep -q 'name="ananke.runs" value="5"' out/j.xml
# the same agent passes with a lower bar: mostly... 3/5 >= 0.6
"$MOCK" agui --scenario scenario.yaml --port-file out/port2 >/dev/null 2>&1 & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s out/port2 ] && break; sleep 0.05; done
ANANKE_MOCK_URL="http://127.0.0.1:$(cat out/port2)/agent" "$ANANKE" run . --repeat 5 --pass-rate 60% -j 5 --loops 2 > out/rate.stdout
grep -q 'PASS  sometimes right' out/rate.stdout
