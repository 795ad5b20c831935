set -e
# bad: KEY VALUE LINE:COL MESSAGE -- each a config error (exit 2) at its place
bad() {
  local key=$1 value=$2 where=$3 msg=$4
  cat > out/bad.config.yaml <<YAML
version: "1.0"
target:
  type: acp
  command: "\${ENV.MOCK}"
  args: ["acp"]
  $key: $value
YAML
  set +e
  "$ANANKE" run -c out/bad.config.yaml a.test.yaml >out/bad.out 2>&1; rc=$?
  set -e
  [ $rc = 2 ] || { echo "$key: exit $rc, want 2"; cat out/bad.out; exit 1; }
  grep -qF "out/bad.config.yaml:$where: $msg" out/bad.out ||
    { echo "$key: want 'out/bad.config.yaml:$where: $msg'"; cat out/bad.out; exit 1; }
}
bad confine '"sometimes"' 6:12 "unknown confine 'sometimes' (one of: terminals, agent, required, none)"
bad confine '[agent]' 6:12 "'confine' must be a string"
bad network '"maybe"' 6:12 "'network' must be true or false"
bad inherit_env 3 6:16 "'inherit_env' must be true or false"
bad confine_paths '["relative/dir"]' 6:19 "confine_paths entry 'relative/dir' is not an absolute path"
bad confine_paths '"/usr"' 6:18 "'confine_paths' must be"
# on an mcp target, inherit_env is a stdio key
cat > out/mcp.config.yaml <<'YAML'
version: "1.0"
target:
  type: mcp
  endpoint: "http://127.0.0.1:9/mcp"
  inherit_env: true
YAML
set +e
"$ANANKE" run -c out/mcp.config.yaml a.test.yaml >out/mcp.out 2>&1; rc=$?
set -e
[ $rc = 2 ] || { echo "mcp: exit $rc, want 2"; cat out/mcp.out; exit 1; }
grep -qF "out/mcp.config.yaml:5:16: 'inherit_env' belongs to a stdio transport" out/mcp.out ||
  { cat out/mcp.out; exit 1; }
