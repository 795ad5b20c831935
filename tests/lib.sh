# Shell helpers the test scripts share; source it, do not run it:
#
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/../lib.sh"
#
# It sets tests_root (the repository) and tests_build (the build directory:
# $ANANKE_BUILD, default "build", made absolute against the repository) and
# defines functions; nothing here starts a process or changes a setting of
# the sourcing script, but one: ANANKE_HISTORY=0, so that no test appends
# to a run history in the source tree (a case that tests the history sets
# its own, docs/history.md).
#
# The counting helpers (ok, bad, check, finish, broken) count in the
# caller's $pass and $fail; finish and broken name the suite $suite.
# shellcheck shell=bash
# The callers set $suite, $pass, $fail and $here and read $spawned_pid:
# shellcheck disable=SC2154,SC2034

export ANANKE_HISTORY=0
tests_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tests_build=${ANANKE_BUILD:-build}
case "$tests_build" in /*) ;; *) tests_build="$tests_root/$tests_build" ;; esac

# ok MESSAGE / bad MESSAGE: one check passed / failed, counted and printed.
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# check NAME COMMAND...: one counted check; COMMAND's output is shown on failure.
check() {
  local name=$1; shift
  local log
  if log=$("$@" 2>&1); then
    pass=$((pass + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name"
    [ -n "$log" ] && sed 's/^/    /' <<<"$log" | head -n 30
  fi
}

# jq_true FILE FILTER [ARGS...]: FILTER (run with -e) must print true.
jq_true() {
  local file=$1 filter=$2; shift 2
  local got
  got=$(timeout 20 jq -e "$@" "$filter" "$file" 2>&1) && [ "$got" = true ] && return 0
  echo "jq: $filter"; echo "got: $got"
  return 1
}

# exit_is WANT LOG COMMAND...: run ananke in $here/suite, keep its output,
# compare the exit code.
exit_is() {
  local want=$1 log=$2; shift 2
  (cd "$here/suite" && timeout -k 5 120 "$@") >"$log" 2>&1
  local got=$?
  [ "$got" = "$want" ] && return 0
  echo "exit $got, expected $want"; sed 's/^/| /' "$log" | head -n 40
  return 1
}

# finish / broken MESSAGE: the end of a suite. finish prints "SUITE: N passed, N failed" and exits 0
# when nothing failed, else 1; broken (the suite cannot run at all) counts
# one failure, says why on stderr and finishes.
finish() {
  echo "$suite: $pass passed, $fail failed"
  [ "$fail" -eq 0 ] && exit 0
  exit 1
}
broken() {
  echo "FAIL $suite: $*" >&2
  fail=$((fail + 1))
  finish
}

# need_node WHY / need_jq: broken unless the command is installed.
need_node() {
  command -v node >/dev/null 2>&1 || broken "node is not installed ($1)"
}
need_jq() {
  command -v jq >/dev/null 2>&1 || broken "jq is not installed (run scripts/setup.sh)"
}

# spawn_server PORT_FILE STEP STDOUT STDERR COMMAND...: run COMMAND in the
# background (its pid in $spawned_pid) and wait up to 100 steps of STEP
# seconds for it to write its port to PORT_FILE. Fails when it has not.
# The server is the caller's to stop (stop_pids), whether or not it started.
spawned_pid=""
spawn_server() {
  local port_file=$1 step=$2 stdout=$3 stderr=$4
  shift 4
  "$@" >"$stdout" 2>"$stderr" &
  spawned_pid=$!
  for _ in $(seq 1 100); do [ -s "$port_file" ] && break; sleep "$step"; done
  [ -s "$port_file" ]
}

# stop_pids PID...: kill each (empty ones are skipped) and reap it, quietly.
stop_pids() {
  local p
  for p in "$@"; do
    [ -n "$p" ] || continue
    kill "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  return 0
}

# interrupt OUT ERR COMMAND...: run COMMAND in the background (its output in
# OUT and ERR), press Ctrl-C (SIGINT) 1.5 s later and wait for it: its exit
# code in $rc, the milliseconds it took to stop in $took.
interrupt() {
  local out=$1 err=$2 cpid t0
  shift 2
  "$@" >"$out" 2>"$err" &
  cpid=$!
  sleep 1.5
  kill -INT "$cpid"
  t0=$(date +%s%N)
  wait "$cpid"; rc=$?
  took=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# normalise: stdin to stdout with durations ("123 ms", "1.5 s") made "N ms",
# "N s" and colour codes removed.
normalise() {
  sed -E -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/N \2/g' -e 's/\x1b\[[0-9;]*m//g'
}

# contains_in_order WANT GOT: every non-empty line of WANT appears in GOT, in
# this order, each inside a line after the previous one's; else prints the
# first missing one and fails.
contains_in_order() {
  awk 'BEGIN { n = 0; i = 0 }  # numeric: an unset subscript would be "", which index() finds everywhere in mawk
       NR == FNR { if (length($0)) want[n++] = $0; next }
       { while (i < n && index($0, want[i])) i++ }
       END { if (i < n) { print "    missing: " want[i]; exit 1 } }' "$1" "$2"
}
