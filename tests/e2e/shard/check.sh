set -e
"$ANANKE" run . --shard 2/3 --reporter json:out/2.json >/dev/null
"$ANANKE" run . --shard 3/3 --reporter json:out/3.json >/dev/null
all=$("$ANANKE" run . --dry-run | grep -c 'shard test')
[ "$all" = 11 ]
# every test exactly once across the shards, sizes differ by at most one
jq -r '.tests[].name' out/1.json out/2.json out/3.json | sort > out/union
[ "$(sort -u out/union | wc -l)" = 11 ] && [ "$(wc -l < out/union)" = 11 ]
for k in 1 2 3; do n=$(jq '.tests | length' out/$k.json); [ "$n" -ge 3 ] && [ "$n" -le 4 ]; done
# stable: the same shard twice selects the same tests
"$ANANKE" run . --shard 2/3 --dry-run | grep 'shard test' > out/again
[ "$(grep -c 'shard test' out/again)" = "$(jq '.tests | length' out/2.json)" ]
# a bad shard is a usage error
set +e; "$ANANKE" run . --shard 4/3 >/dev/null 2>&1; [ $? = 2 ]
