# Each cap of issue 18 refuses a bad value with its location.
set -e
sed 's/^  max_state_bytes: 0$/  max_state_bytes: 1000/' ananke.config.yaml >"$OUT/warn.config.yaml"
rc=0
"$ANANKE" validate -c "$OUT/warn.config.yaml" a.test.yaml >"$OUT/warn.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { echo "exit $rc"; cat "$OUT/warn.out"; exit 1; }
grep -q "warn.config.yaml:2:15: 'max_warnings' must be at least 1" "$OUT/warn.out" || { cat "$OUT/warn.out"; exit 1; }
sed 's/^max_warnings: 0$/max_warnings: many/; s/^  max_state_bytes: 0$/  max_state_bytes: 1000/' \
  ananke.config.yaml >"$OUT/words.config.yaml"
rc=0
"$ANANKE" validate -c "$OUT/words.config.yaml" a.test.yaml >"$OUT/words.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { echo "exit $rc"; cat "$OUT/words.out"; exit 1; }
grep -q "words.config.yaml:2:15: .*max_warnings" "$OUT/words.out" || { cat "$OUT/words.out"; exit 1; }
