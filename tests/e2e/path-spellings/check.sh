set -e
# a path with an empty segment or a bad index is refused where it is written
printf 'version: "1.0"\nturns:\n  - user: hi\n    assert:\n      tools:\n        require:\n          - name: a\n            args_match: {"items[x].sku": "a"}\n' \
  >out/bad.test.yaml
set +e
"$ANANKE" validate out/bad.test.yaml >out/bad.run 2>&1
rc=$?
set -e
[ $rc = 2 ] || { echo "exit $rc, want 2"; cat out/bad.run; exit 1; }
grep -qF "bad.test.yaml:8:26: invalid argument path 'items[x].sku' (dots between keys, list items by number: items.0.sku or items[0].sku)" out/bad.run ||
  { cat out/bad.run; exit 1; }
