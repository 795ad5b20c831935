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
for t in "$B"/test_*; do
  [ -x "$t" ] || continue
  if (cd "$root" && timeout 600 "${VG[@]}" "$t" >/tmp/ananke-vg.$$ 2>&1); then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $(basename "$t")"; grep -E '==[0-9]+==' /tmp/ananke-vg.$$ | head -20
  fi
done
rm -f /tmp/ananke-vg.$$
# the e2e cases, with ananke itself under valgrind (exit 99 = a memory error)
wrap=$(mktemp)
trap 'rm -f "$wrap"' EXIT
cat >"$wrap" <<WRAP
#!/usr/bin/env bash
exec ${VG[*]} "$B/ananke" "\$@"
WRAP
chmod +x "$wrap"
cases=(assert-forbid assert-require assert-forbid-calls assert-text conversation hooks faults
       inheritance malformed reporters shard flaky acp-target acp-crash agent-down
       jsonl-output markdown-output jsonl-judge openai-target jsonl-input-sources
       jsonl-script dynamic)
if ANANKE="$wrap" ANANKE_BUILD="$B" bash "$root/tests/e2e/run.sh" "${cases[@]}" >/tmp/ananke-vg-e2e.$$ 2>&1; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL e2e under valgrind"; tail -n 30 /tmp/ananke-vg-e2e.$$
fi
rm -f /tmp/ananke-vg-e2e.$$
# the MCP target against the reference servers (stdio, HTTP, faults)
if [ -d "$root/tests/mcp/node_modules" ]; then
  if ANANKE="$wrap" ANANKE_BUILD="$B" bash "$root/tests/mcp/run.sh" everything-stdio \
       everything-http faults filesystem >/tmp/ananke-vg-mcp.$$ 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL mcp under valgrind"; tail -n 30 /tmp/ananke-vg-mcp.$$
  fi
  rm -f /tmp/ananke-vg-mcp.$$
fi
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
