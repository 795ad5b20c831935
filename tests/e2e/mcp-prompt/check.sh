set -e
# a prompt's arguments are text; a list is refused where it is written
printf 'version: "1.0"\nturns:\n  - type: mcp:prompt\n    prompt: greet\n    arguments: {name: [a]}\n' \
  >out/bad.test.yaml
set +e
"$ANANKE" validate out/bad.test.yaml >out/bad.run 2>&1
rc=$?
set -e
[ $rc = 2 ] || { echo "exit $rc, want 2"; cat out/bad.run; exit 1; }
grep -qF "bad.test.yaml:5:23: a prompt's argument 'name' must be a string" out/bad.run ||
  { cat out/bad.run; exit 1; }
printf 'version: "1.0"\nturns:\n  - type: mcp:prompt\n    arguments: {name: a}\n' >out/noname.test.yaml
set +e
"$ANANKE" validate out/noname.test.yaml >out/noname.run 2>&1
rc=$?
set -e
[ $rc = 2 ] || { echo "exit $rc, want 2"; cat out/noname.run; exit 1; }
grep -qF "noname.test.yaml:3:5: missing required key 'prompt' in an mcp:prompt turn" out/noname.run ||
  { cat out/noname.run; exit 1; }
