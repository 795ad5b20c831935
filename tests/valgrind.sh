#!/usr/bin/env bash
# Memory errors and leaks: every unit test, and the end-to-end cases that do
# not measure time, run under valgrind (errors fail the run). PCRE2's JIT
# reads past the subject in wide words, which valgrind reports, so
# ANANKE_NO_JIT=1 keeps the interpreter; a forked child that fails to exec
# leaves its copy of the parent's heap, hence --child-silent-after-fork.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
command -v valgrind >/dev/null || { echo "valgrind: not installed"; exit 1; }
export ANANKE_NO_JIT=1
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
    --child-silent-after-fork=yes --suppressions=/dev/null)
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# two at a time (the machine has two cores; valgrind uses one)
unit() { # TEST: its log and exit code in $tmp
  (cd "$root" && timeout 600 "${VG[@]}" "$1" >"$tmp/$(basename "$1").log" 2>&1)
  echo $? >"$tmp/$(basename "$1").rc"
}
n=0
for t in "$B"/test_*; do
  [ -x "$t" ] || continue
  unit "$t" &
  n=$((n + 1))
  [ $((n % 2)) -eq 0 ] && wait
done
wait
for t in "$B"/test_*; do
  [ -x "$t" ] || continue
  b=$(basename "$t")
  if [ "$(cat "$tmp/$b.rc")" = 0 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $b"; grep -E '==[0-9]+==' "$tmp/$b.log" | head -20
  fi
done
# the e2e cases, with ananke itself under valgrind (exit 99 = a memory error),
# and the MCP target against the reference servers, side by side
wrap=$tmp/ananke-vg
cat >"$wrap" <<WRAP
#!/usr/bin/env bash
exec ${VG[*]} "$B/ananke" "\$@"
WRAP
chmod +x "$wrap"
cases=(assert-forbid assert-require assert-forbid-calls assert-text conversation hooks faults
       inheritance malformed reporters shard flaky acp-target acp-crash agent-down
       jsonl-output markdown-output jsonl-judge openai-target jsonl-input-sources
       jsonl-script dynamic assert-usage usage-acp)
ANANKE="$wrap" ANANKE_BUILD="$B" bash "$root/tests/e2e/run.sh" "${cases[@]}" >"$tmp/e2e.log" 2>&1 &
e2e_pid=$!
mcp_pid=""
if [ -d "$root/tests/mcp/node_modules" ]; then
  ANANKE="$wrap" ANANKE_BUILD="$B" bash "$root/tests/mcp/run.sh" everything-stdio \
    everything-http faults filesystem >"$tmp/mcp.log" 2>&1 &
  mcp_pid=$!
fi
if wait "$e2e_pid"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL e2e under valgrind"; tail -n 30 "$tmp/e2e.log"
fi
if [ -n "$mcp_pid" ]; then
  if wait "$mcp_pid"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL mcp under valgrind"; tail -n 30 "$tmp/mcp.log"
  fi
fi
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
