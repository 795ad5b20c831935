#!/usr/bin/env bash
# Memory errors and leaks: every unit test, and the end-to-end cases that do
# not measure time, run under valgrind (errors fail the run). PCRE2's JIT
# reads past the subject in wide words, which valgrind reports, so
# ANANKE_NO_JIT=1 keeps the interpreter; a forked child that fails to exec
# leaves its copy of the parent's heap, hence --child-silent-after-fork.
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
root=$(cd "$(dirname "$0")/.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
command -v valgrind >/dev/null || { echo "valgrind: not installed"; exit 1; }
export ANANKE_NO_JIT=1
export ANANKE_UNDER_VALGRIND=1 # unit tests that loop over many inputs take fewer
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
    --child-silent-after-fork=yes --suppressions=/dev/null)
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ananke itself under valgrind (exit 99 = a memory error) for the e2e cases
# and the MCP target against the reference servers
wrap=$tmp/ananke-vg
cat >"$wrap" <<WRAP
#!/usr/bin/env bash
exec ${VG[*]} "$B/ananke" "\$@"
WRAP
chmod +x "$wrap"
# the e2e cases that do not measure time, slowest first
cases=(shard reporters jsonl-input-sources jsonl-judge flaky dynamic inheritance acp-crash
       jsonl-script jsonl-output acp-target faults assert-forbid-calls openai-target
       markdown-output assert-require assert-forbid assert-text hooks conversation agent-down
       assert-usage usage-acp malformed)
units=()
for t in "$B"/test_*; do [ -x "$t" ] && units+=("$(basename "$t")"); done
# job KIND NAME: one unit test, one e2e case or the MCP suite; its output in
# $tmp/KIND-NAME.log, its exit code in $tmp/KIND-NAME.rc
job() {
  case $1 in
    unit) (cd "$root" && timeout 600 "${VG[@]}" "$B/$2") ;;
    e2e) ANANKE="$wrap" ANANKE_BUILD="$B" bash "$root/tests/e2e/run.sh" "$2" ;;
    mcp) ANANKE="$wrap" ANANKE_BUILD="$B" bash "$root/tests/mcp/run.sh" everything-stdio \
           everything-http faults filesystem ;;
  esac >"$tmp/$1-$2.log" 2>&1
  echo $? >"$tmp/$1-$2.rc"
}
# every job, two at a time (the machine has two cores; valgrind uses one),
# the longest first so that the two finish together
jobs=()
[ -d "$root/tests/mcp/node_modules" ] && jobs+=("mcp servers")
for c in "${cases[@]}"; do jobs+=("e2e $c"); done
for t in "${units[@]}"; do jobs+=("unit $t"); done
running=0
for j in "${jobs[@]}"; do
  # shellcheck disable=SC2086 # "KIND NAME"
  job $j &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
rc_of() { cat "$tmp/$1-$2.rc" 2>/dev/null || echo missing; }
for b in "${units[@]}"; do
  if [ "$(rc_of unit "$b")" = 0 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $b"; grep -E '==[0-9]+==' "$tmp/unit-$b.log" | head -20
  fi
done
e2e_failed=()
for c in "${cases[@]}"; do [ "$(rc_of e2e "$c")" = 0 ] || e2e_failed+=("$c"); done
if [ ${#e2e_failed[@]} -eq 0 ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL e2e under valgrind"
  for c in "${e2e_failed[@]}"; do tail -n 30 "$tmp/e2e-$c.log"; done
fi
if [ -d "$root/tests/mcp/node_modules" ]; then
  if [ "$(rc_of mcp servers)" = 0 ]; then
    pass=$((pass + 1))
  else
    # its failures (FAIL lines and what follows them), not valgrind's notes
    fail=$((fail + 1)); echo "FAIL mcp under valgrind"
    grep -v -e '^ *| --[0-9]*-- ' -e '^--[0-9]*-- ' "$tmp/mcp-servers.log" | grep -A 30 -m 3 '^FAIL' | head -n 100
  fi
fi
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
