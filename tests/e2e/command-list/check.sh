set -e
# acp: the list form starts the agent too
"$ANANKE" run -c acp.config.yaml hello.test.yaml >out/acp.run 2>&1 ||
  { cat out/acp.run; exit 1; }
grep -q 'PASS  an acp agent started by a command list' out/acp.run
# a list command carries its arguments: `args` beside it is refused at its
# place, and so is an empty list
refused() { # CONFIG WANT
  set +e
  "$ANANKE" validate -c "$1" echo.test.yaml >out/refused.run 2>&1
  rc=$?
  set -e
  [ $rc = 2 ] || { echo "$1: exit $rc, want 2"; cat out/refused.run; exit 1; }
  grep -qF "$2" out/refused.run || { echo "$1: want $2"; cat out/refused.run; exit 1; }
}
printf 'version: "1.0"\ntarget:\n  type: mcp\n  command: ["%s", "mcp"]\n  args: ["x"]\n' "$MOCK" \
  >out/both.yaml
refused out/both.yaml "both.yaml:5:9: 'args' goes with a 'command' string; this 'command' is a list"
printf 'version: "1.0"\ntarget:\n  type: acp\n  command: []\n' >out/empty.yaml
refused out/empty.yaml "empty.yaml:4:12: 'command' must be a program, or a non-empty list"
printf 'version: "1.0"\ntarget:\n  type: acp\n  command: [1, {a: b}]\n' >out/map.yaml
refused out/map.yaml "map.yaml:4:16: 'command[]' must be a string, not a map"
