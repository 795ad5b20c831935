# --exclude-tag wins over --tag
set -e
"$ANANKE" run . --tag smoke --exclude-tag payments -r json:out/both.json > out/both 2>&1
jq -e '[.tests[].name] == ["J1"]' out/both.json >/dev/null
echo ok
