set -e
# a value that is not a whole number, on an mcp target: the same, at its place
cat > out/mcp.config.yaml <<'YAML'
version: "1.0"
target:
  type: mcp
  command: "${ENV.MOCK}"
  args: ["mcp"]
  max_frame_bytes: "lots"
YAML
set +e
"$ANANKE" run -c out/mcp.config.yaml a.test.yaml >out/mcp.out 2>&1; rc=$?
set -e
[ $rc = 2 ] || { echo "exit $rc, want 2"; cat out/mcp.out; exit 1; }
grep -q '^out/mcp.config.yaml:6:20: .*max_frame_bytes' out/mcp.out || { cat out/mcp.out; exit 1; }
