set -e
# nothing was run or written
[ ! -e "$OUT/report.txt" ]
[ "$(cat "$OUT/stdout")" = "" ]
# no extension at all, a directory-looking name, and a missing value: usage errors too
set +e
"$ANANKE" run cases.jsonl --output "$OUT/report" > "$OUT/noext" 2>&1; a=$?
"$ANANKE" run cases.jsonl -o "$OUT/v1.5/report" > "$OUT/dotdir" 2>&1; b=$?
"$ANANKE" run cases.jsonl -o > "$OUT/noval" 2>&1; c=$?
"$ANANKE" run cases.jsonl -r markup:x > "$OUT/badrep" 2>&1; d=$?
set -e
[ "$a$b$c$d" = 2222 ]
grep -q "cannot tell the format of '.*/report' from its extension" "$OUT/noext"
grep -q "cannot tell the format of '.*/v1.5/report'" "$OUT/dotdir"
grep -q "available: console, junit, json, tap, html, jsonl, markdown" "$OUT/badrep"
