set -e
# a command that cannot start is an error naming it, not a hang
cat > out/missing.config.yaml <<'YAML'
version: "1.0"
target:
  type: acp
  command: "/nonexistent/agent"
YAML
set +e
timeout 10 "$ANANKE" run -c out/missing.config.yaml b.test.yaml > out/missing.out 2>&1; rc=$?
set -e
[ $rc = 1 ]
grep -q '/nonexistent/agent' out/missing.out
