# 300 streams open at once, from two event loops (--loops 2, whatever the
# machine's CPUs): the run takes about one stream's 1.5 s, not 300 x 1.5 s,
# and ananke never has more than a few threads (the loops and the main one).
set -e
mkdir -p out/suite
for i in $(seq -w 1 300); do
  printf 'version: "1.0"\nname: stream %s\nturns:\n  - user: "hi"\n    assert:\n      text: {must_match: "done"}\n' $i > out/suite/s$i.test.yaml
done
"$ANANKE" run out/suite -j 300 --loops 2 --reporter json:out/r.json > out/run.stdout &
pid=$!
max=0
while kill -0 $pid 2>/dev/null; do
  n=$(awk '/^Threads:/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
  [ -n "$n" ] && [ "$n" -gt "$max" ] && max=$n
  sleep 0.1
done
wait $pid
jq -e '.summary.passed == 300' out/r.json >/dev/null
jq -e '.duration_ms < 6000' out/r.json >/dev/null
echo "threads at most: $max"
[ "$max" -le 4 ]
