# A reporter registered from outside the library (tests/extension/
# reporter_csv.c, one file and one row) works end to end in ananke-ext;
# plain ananke (cmd) refuses its name.
set -e
EXT=$(dirname "$ANANKE")/ananke-ext
[ -x "$EXT" ] || EXT=${ANANKE_BUILD:-../../../build}/ananke-ext
set +e; "$EXT" run . --reporter csv:"$OUT/r.csv" -o "$OUT/o.csv" --reporter csv > "$OUT/ext.stdout" 2>&1; rc=$?; set -e
[ $rc = 1 ]   # one test fails
diff - "$OUT/r.csv" <<'CSV'
status,name,file
pass,"passes, with a ""comma""",a.test.yaml
fail,fails on purpose,b.test.yaml
CSV
cmp "$OUT/r.csv" "$OUT/o.csv"              # -o FILE.csv: the row's extension
grep -qx 'fail,fails on purpose,b.test.yaml' "$OUT/ext.stdout"   # csv without PATH: stdout
# the row is in the generated help, the unknown-name message and the completions' listing
"$EXT" run --help | grep -qE '^ +csv +one line per test'
"$EXT" run --help | grep -q '\.csv (csv)'
"$EXT" run --list-reporters | grep -qx csv
! "$ANANKE" run --help | grep -qE '^ +csv '
! "$ANANKE" run --list-reporters | grep -qx csv
set +e; "$EXT" run . --reporter nope > "$OUT/nope" 2>&1; rc=$?; set -e
[ $rc = 2 ]
grep -q "available: console, junit, json, tap, html, jsonl, markdown, csv)" "$OUT/nope"
# a comply-less row is not offered to comply
set +e; "$EXT" comply --reporter csv > "$OUT/comply" 2>&1; rc=$?; set -e
[ $rc = 2 ]
grep -q "unknown reporter 'csv' for comply" "$OUT/comply"
