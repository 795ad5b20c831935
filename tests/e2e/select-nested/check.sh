# discovery does not enter a directory holding its own ananke.config.yaml;
# that project runs from its own directory
set -e
trap 'rm -rf .ananke inner/.ananke' EXIT
(cd inner && "$ANANKE" run -r json:../out/inner.json > ../out/inner 2>&1)
jq -e '[.tests[].name] == ["inner project test"]' out/inner.json >/dev/null
echo ok
