set -e
# Every new cap key refuses a value under 1 or not a whole number, at its
# place: one config per target type and key (the value at line 4, column
# 3 + the key's length + 2), and a hook's keys in a test file.
n=0
bad() { # TYPE-LINES KEY VALUE WANT
  n=$((n + 1))
  { printf 'version: "1.0"\ntarget:\n%s\n' "$1"; printf '  %s: %s\n' "$2" "$3"; } >out/c$n.yaml
  set +e
  "$ANANKE" validate -c out/c$n.yaml a.test.yaml >out/c$n.out 2>&1
  local rc=$?
  set -e
  local line col
  line=$(($(printf '%s\n' "$1" | wc -l) + 3))
  col=$((${#2} + 5))
  [ $rc = 2 ] || { echo "c$n ($2): exit $rc, want 2"; cat out/c$n.out; exit 1; }
  grep -qF "out/c$n.yaml:$line:$col: '$2' must $4" out/c$n.out ||
    { echo "c$n ($2): want out/c$n.yaml:$line:$col: '$2' must $4"; cat out/c$n.out; exit 1; }
}
acp='  type: acp
  command: x'
for k in max_stderr_bytes max_read_bytes max_terminals max_terminal_output_bytes; do
  bad "$acp" $k 0 "be at least 1"
  bad "$acp" $k -5 "not be negative (got -5)"
  bad "$acp" $k 1.5 "be a whole number"
done
bad "$acp" max_terminals '"ten"' "be a whole number"
for k in max_event_bytes max_turn_bytes max_tool_calls; do
  bad '  type: openai
  endpoint: "http://127.0.0.1:9/v1"
  model: m' $k 0 "be at least 1"
done
for k in max_event_bytes max_turn_bytes; do
  bad '  type: a2a
  endpoint: "http://127.0.0.1:9/rpc"' $k 0 "be at least 1"
done
bad '  type: mcp
  command: x' max_stderr_bytes 0 "be at least 1"
bad '  type: mcp
  command: x' max_list_pages 0 "be at least 1"
bad '  type: mcp
  endpoint: "http://127.0.0.1:9/mcp"' max_body_bytes 0 "be at least 1"
# a hook's caps, in a test file
printf 'version: "1.0"\ntarget:\n  type: acp\n  command: x\n' >out/ok.yaml
for k in max_stdout_bytes max_stderr_bytes; do
  printf 'version: "1.0"\nname: h\nhooks:\n  - cmd: [true]\n    %s: 0\nturns:\n  - user: "hi"\n' $k \
    >out/h-$k.test.yaml
  set +e
  "$ANANKE" validate -c out/ok.yaml out/h-$k.test.yaml >out/h-$k.out 2>&1
  rc=$?
  set -e
  [ $rc = 2 ] || { echo "hook $k: exit $rc, want 2"; cat out/h-$k.out; exit 1; }
  grep -qF "out/h-$k.test.yaml:5:$((${#k} + 7)): '$k' must be at least 1" out/h-$k.out ||
    { echo "hook $k:"; cat out/h-$k.out; exit 1; }
done
