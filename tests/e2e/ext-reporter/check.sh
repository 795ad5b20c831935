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
grep -q "available: console, junit, json, tap, html, jsonl, markdown, csv, turns, turns-lean)" "$OUT/nope"
# a comply-less row is not offered to comply
set +e; "$EXT" comply --reporter csv > "$OUT/comply" 2>&1; rc=$?; set -e
[ $rc = 2 ]
grep -q "unknown reporter 'csv' for comply" "$OUT/comply"
# the conversation of a test's last turn (tests/extension/reporter_turns.c):
# built for a row that does not say no_messages (as for every row before
# the flag), for the json report and for a recording; not built when every
# report says it never reads it (the library's junit, tap, html, jsonl,
# markdown), which is what a run without reports does
both() { printf '%s\n' "passes, with a \"comma\": $1" "fails on purpose: $1"; }
set +e
"$EXT" run . -r turns:"$OUT/t1" > /dev/null 2>&1
"$EXT" run . -r turns-lean:"$OUT/t2" -r junit:"$OUT/t2.xml" > /dev/null 2>&1
"$EXT" run . -r turns-lean:"$OUT/t3" -r json:"$OUT/t3.json" > /dev/null 2>&1
"$EXT" run . -r turns-lean:"$OUT/t4" --record "$OUT/rec" > /dev/null 2>&1
set -e
both "4 messages" | diff - "$OUT/t1"
both "-" | diff - "$OUT/t2"
both "4 messages" | diff - "$OUT/t3"
both "4 messages" | diff - "$OUT/t4"
grep -q '"messages"' "$OUT/t3.json"
