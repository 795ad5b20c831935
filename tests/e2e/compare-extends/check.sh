# The repro command of an evidence pack works for a test that uses
# `extends`: the pack's repro config keeps the config's `assertions:`.
set -e
fail() { echo "$*"; exit 1; }
here=$PWD
for side in base new; do
  (cd project && "$ANANKE" run greet.test.yaml --record "$OUT/$side" >"$OUT/$side.log" 2>&1) ||
    fail "recording $side: $(cat "$OUT/$side.log")"
done
jq -e '.config.assertions | startswith("assertions:\n  polite:") and (contains("quick:")) and (contains("target:") | not)' \
  "$OUT/new/run.json" >/dev/null || fail "run.json: $(jq -c .config "$OUT/new/run.json")"
"$ANANKE" compare "$OUT/base" "$OUT/new" -o "$OUT/pack" >"$OUT/compare.log" 2>&1 || fail "compare: $(cat "$OUT/compare.log")"
cmd=$(jq -r .command "$OUT/pack/repro/greets.json")
[ "$cmd" = "ananke run -c repro/ananke.config.yaml --filter '^greets\$' 'greet.test.yaml'" ] || fail "command: $cmd"
grep -q '^assertions:$' "$OUT/pack/repro/ananke.config.yaml" || fail "no assertions: $(cat "$OUT/pack/repro/ananke.config.yaml")"
# the command as written, from the project directory, with the pack's path
cmd=${cmd/#ananke /\"\$ANANKE\" }
cmd=${cmd/-c repro\//-c \"\$OUT\/pack\/repro\/\"}
(cd project && eval "$cmd" >"$OUT/repro.log" 2>&1) || fail "repro command failed: $(cat "$OUT/repro.log")"
grep -q '^PASS  greets' "$OUT/repro.log" || fail "repro: $(cat "$OUT/repro.log")"
