set -e
jq -e '.tests[0].status == "pass" and .tests[0].stats.flaky and .options.fail_on_flaky' out/r.json >/dev/null
# merged, the verdict stays: a flaky test of a --fail-on-flaky run fails it
set +e; "$ANANKE" merge out/r.json >out/merge.stdout; rc=$?; set -e
[ $rc = 1 ]
# the same agent on a fresh mock (its counters start again)
"$MOCK" agui --scenario scenario.yaml --port-file out/port2 >/dev/null 2>&1 & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s out/port2 ] && break; sleep 0.05; done
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat out/port2)/agent"
# without the flag the flaky test passes its 60 % (exit 0) ...
"$ANANKE" run weather.test.yaml --repeat 5 --pass-rate 60% > out/plain.stdout
grep -q '1 passed, 0 failed, 0 errors, 1 flaky (1 test)' out/plain.stdout
# ... and with it, a test whose runs agree does not fail the run
"$ANANKE" run greeting.test.yaml --repeat 3 --fail-on-flaky > out/steady.stdout
! grep -q flaky out/steady.stdout
# values that cannot be: usage errors (exit 2), nothing run
set +e
"$ANANKE" run weather.test.yaml --repeat 5 --pass-k 6 > out/k.out 2>&1; rc=$?
[ $rc = 2 ] || exit 1
grep -q "pass-k 6 is more than --repeat 5" out/k.out || exit 1
for c in 1 0 0.5 95 -0.5 abc 100%; do
  "$ANANKE" run weather.test.yaml --repeat 5 --confidence "$c" > out/c.out 2>&1; rc=$?
  [ $rc = 2 ] || { echo "--confidence $c: exit $rc"; exit 1; }
  grep -q "confidence takes a share above 0.5 and below 1" out/c.out || exit 1
done
set -e
# 99 % widens the interval; 90% (a percentage) narrows it
"$ANANKE" run greeting.test.yaml --repeat 5 --confidence 99% > out/c99.stdout
grep -qF '99% CI [34.7%, 100%] (clopper-pearson)' out/c99.stdout   # 0.005^(1/5) = 0.34657
