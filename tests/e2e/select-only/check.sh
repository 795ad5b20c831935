# `only` with other selections: --tag still applies within the `only` tests
set -e
rc=0; CI= "$ANANKE" run . --filter O1 -r json:out/f.json > out/f 2>&1 || rc=$?
[ "$rc" = 0 ] && jq -e '[.tests[].name] == ["O1"]' out/f.json >/dev/null
echo ok
