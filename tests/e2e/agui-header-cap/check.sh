# The same through libcurl (ANANKE_HTTP_CLIENT=curl): the same message; a
# generous cap: both pass; a bad value: refused at its place.
set -e
rc=0
ANANKE_HTTP_CLIENT=curl "$ANANKE" run . -r json:"$OUT/curl.json" >"$OUT/curl.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "curl: exit $rc"; cat "$OUT/curl.out"; exit 1; }
jq -e '[.tests[] | .status == "error" and (.error.message == "response headers larger than max_header_bytes (60 bytes)")] == [true, true]' \
  "$OUT/curl.json" >/dev/null || { echo "curl: not the same errors"; jq -c '.tests[].error' "$OUT/curl.json"; exit 1; }
mkdir -p "$OUT/wide"
sed 's/max_header_bytes: 60/max_header_bytes: 1000/' ananke.config.yaml >"$OUT/wide/ananke.config.yaml"
cp a.test.yaml b.test.yaml "$OUT/wide/"
for c in "" curl; do
  ANANKE_HTTP_CLIENT=$c "$ANANKE" run "$OUT/wide" -c "$OUT/wide/ananke.config.yaml" >"$OUT/wide$c.out" 2>&1 ||
    { echo "a cap of 1000 (client '$c'): not passed"; cat "$OUT/wide$c.out"; exit 1; }
done
sed 's/max_header_bytes: 60/max_header_bytes: 0/' ananke.config.yaml >"$OUT/zero.config.yaml"
rc=0
"$ANANKE" validate -c "$OUT/zero.config.yaml" a.test.yaml >"$OUT/zero.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { echo "zero: exit $rc"; cat "$OUT/zero.out"; exit 1; }
grep -q "zero.config.yaml:10:21: 'max_header_bytes' must be at least 1" "$OUT/zero.out" ||
  { cat "$OUT/zero.out"; exit 1; }
