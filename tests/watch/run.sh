#!/usr/bin/env bash
# Watch mode (`ananke run --watch`, docs/watch.md) driven as a user drives it:
# in a pseudo-terminal made by `script` (bsdutils), keys written to its
# standard input, files edited under it, the console read back. Against
# `ananke-mock agui`: alpha (a.test.yaml) and beta (b.test.yaml) pass, gamma
# (c.test.yaml, whose hook runs scripts/seed.sh) fails.
#   tests/watch/run.sh          ANANKE_BUILD: the build to test (default build)
#   ANANKE_WATCH_POLL=1 ...     the same cases on the polling fallback
# Ends with "watch: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
suite=watch
pass=0 fail=0
B=$tests_build
ANANKE=$B/ananke
MOCK=$B/ananke-mock
export NO_COLOR=1
command -v script >/dev/null || broken "script is not installed (bsdutils; scripts/setup.sh)"
command -v jq >/dev/null || broken "jq is not installed (scripts/setup.sh)"
[ -x "$ANANKE" ] && [ -x "$MOCK" ] || broken "no $ANANKE or $MOCK (build first)"

tmp=$(mktemp -d)
mock_pid="" watch_pid="" keys_fd=""
cleanup() {
  [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
  stop_pids "$mock_pid"
  rm -rf "$tmp"
}
trap cleanup EXIT

spawn_server "$tmp/port" 0.05 "$tmp/mock.out" "$tmp/mock.err" \
  "$MOCK" agui --scenario "$here/agent.mock.yaml" --port-file "$tmp/port" ||
  broken "ananke-mock agui did not start: $(cat "$tmp/mock.err")"
mock_pid=$spawned_pid
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$tmp/port")/"

# project: a fresh copy of the fixture in $tmp/p
project() {
  rm -rf "$tmp/p"
  cp -r "$here/project" "$tmp/p"
}

# the console as text: no carriage returns, no escape sequences
console() { tr '\r' '\n' <"$tmp/console" | sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g'; }

# wait_for N PATTERN: until PATTERN (ERE) is on N lines of the console (20 s)
wait_for() {
  local n=$1 pat=$2
  for _ in $(seq 1 200); do
    [ "$(console | grep -cE -- "$pat")" -ge "$n" ] && return 0
    sleep 0.1
  done
  echo "timed out waiting for $n x '$pat'; console:"
  console | sed 's/^/| /' | tail -n 40
  return 1
}
# waiting N: the watch is idle for the N-th time
waiting() { wait_for "$1" '^watch: last exit .* waiting for changes'; }

# section N: the console of pass N (its header to the next waiting line)
section() {
  console | awk -v n="$1" '/^-- watch pass /{on = ($4 == n":")} on{print} /waiting for changes/{on=0}'
}

# ran N NAMES...: pass N ran exactly these tests (by their result lines)
ran() {
  local n=$1; shift
  local got want
  got=$(section "$n" | grep -oE '^(PASS|FAIL|ERROR) +[a-z0-9]+' | awk '{print $2}' | sort | tr '\n' ' ')
  want=""
  [ $# -gt 0 ] && want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  [ "$got" = "$want" ] && return 0
  echo "pass $n ran '$got', expected '$want'"; section "$n" | sed 's/^/| /' | head -n 30
  return 1
}

# start_watch ARGS...: ananke run --watch ARGS in a pseudo-terminal in
# $tmp/p; keys go to it through fd $keys_fd; its exit code lands in $tmp/rc
start_watch() {
  rm -f "$tmp/keys" "$tmp/rc" "$tmp/console"
  mkfifo "$tmp/keys"
  # exec: ananke itself is the terminal's foreground process, not the shell
  # script runs it with ($SHELL, or sh: dash, which Ctrl-C would kill)
  (cd "$tmp/p" && script -qfec "exec $(printf '%q ' "$ANANKE" run --watch "$@")" /dev/null \
     <"$tmp/keys" >"$tmp/console" 2>&1; echo $? >"$tmp/rc") &
  watch_pid=$!
  exec {keys_fd}>"$tmp/keys"
}
key() { printf '%s' "$1" >&"$keys_fd"; }
# end_watch: the watch's exit code in $rc (it must end within 10 s)
end_watch() {
  exec {keys_fd}>&-
  for _ in $(seq 1 100); do [ -s "$tmp/rc" ] && break; sleep 0.1; done
  rc=$(cat "$tmp/rc" 2>/dev/null || echo none)
  wait "$watch_pid" 2>/dev/null
  watch_pid=""
  if console | grep -qE 'Sanitizer|runtime error:'; then # a sanitized build's findings
    bad "the sanitizers found something:"; console | grep -E -A8 'Sanitizer|runtime error:' | head -n 30
  fi
}
rc_is() { [ "$rc" = "$1" ] || { echo "exit code $rc"; return 1; }; }
edit() { sleep 0.05; printf '%s\n' "$2" >>"$tmp/p/$1"; }

# ---- the session ---------------------------------------------------------
project
start_watch --history "$tmp/history.sqlite"
if waiting 1; then
  check "the first pass runs every test" ran 1 alpha beta gamma
  check "its header says why" grep -q '^-- watch pass 1: start: running all tests --' <(console)
  check "the idle line names the keys and how changes are seen" \
    grep -qE "waiting for changes \\((inotify|polling): [0-9]+ files.*Enter all, f failed \\(1\\), q quit" <(console)
else
  bad "the watch never became idle"
fi

edit tests/a.test.yaml "# edited"
waiting 2 && check "an edited test file reruns its test only" ran 2 alpha
check "the header names the changed file" grep -q '^-- watch pass 2: changed tests/a.test.yaml; rerunning the tests of the changed files --' <(console)

edit ananke.config.yaml "# edited"
waiting 3 && check "an edited config reruns every test" ran 3 alpha beta gamma
check "the header says so" grep -q '^-- watch pass 3: changed ananke.config.yaml; rerunning all tests (config or hook file) --' <(console)

edit scripts/seed.sh "# edited"
waiting 4 && check "an edited file a hook names reruns every test" ran 4 alpha beta gamma

key f
waiting 5 && check "f reruns the failed test only" ran 5 gamma
check "the header says f" grep -q '^-- watch pass 5: f: rerunning the failed tests --' <(console)

key $'\r'
waiting 6 && check "Enter reruns every test" ran 6 alpha beta gamma

printf 'version: "1.0"\nname: beta\nturns: [\n' >"$tmp/p/tests/b.test.yaml"
waiting 7
check "a broken edit is a load error with file:line:col" \
  grep -qE 'tests/b.test.yaml:[0-9]+:[0-9]+: ' <(section 7)
check "... that runs nothing" ran 7
check "... and the watch goes on (exit 2 noted)" grep -q '^watch: last exit 2; waiting' <(section 7)

cp "$here/project/tests/b.test.yaml" "$tmp/p/tests/b.test.yaml"
waiting 8 && check "the fix reruns the fixed test, which passes" ran 8 beta
check "... exit 0" grep -q '^watch: last exit 0; waiting' <(section 8)

sed 's/alpha/delta/' "$tmp/p/tests/a.test.yaml" >"$tmp/p/tests/.d.tmp" &&
  mv "$tmp/p/tests/.d.tmp" "$tmp/p/tests/d.test.yaml" # an editor's rename-over
waiting 9 && check "a new test file is picked up and run alone" ran 9 delta
check "the header says added" grep -q '^-- watch pass 9: added tests/d.test.yaml' <(console)

rm "$tmp/p/tests/d.test.yaml"
wait_for 1 '^watch: removed tests/d.test.yaml; no test to rerun' &&
  ok "a deleted test file is dropped, nothing reruns"

# a burst of writes (truncate, write, write, rename-over) is one rerun
for i in 1 2 3; do printf '# burst %s\n' "$i" >>"$tmp/p/tests/a.test.yaml"; done
cp "$tmp/p/tests/a.test.yaml" "$tmp/p/tests/.a.swp" && mv "$tmp/p/tests/.a.swp" "$tmp/p/tests/a.test.yaml"
waiting 10 && check "a burst of writes is one rerun" ran 10 alpha
sleep 1
check "... and only one" test "$(console | grep -c '^-- watch pass 11')" = 0

key f
waiting 11 && check "f after a partial rerun still knows gamma failed" ran 11 gamma
sed 's/name: gamma/name: gamma2/' "$tmp/p/tests/c.test.yaml" >"$tmp/p/tests/.c" && mv "$tmp/p/tests/.c" "$tmp/p/tests/c.test.yaml"
waiting 12 && check "a renamed test reruns" ran 12 gamma2
check "... and its old name is no longer counted failed" grep -q '^watch: last exit 1; .*f failed (1), q quit' <(section 12)
key q
end_watch
check "q exits with the last run's code (1: gamma failed)" rc_is 1
check "... and says so" grep -q '^watch: exit 1 (the last run' <(console)
check "a terminal's console is cleared once per pass" \
  test "$(grep -o $'\x1b\\[2J' "$tmp/console" | wc -l)" = 12
check "every pass that ran a test is in the history (11 runs)" \
  test "$("$ANANKE" history --history "$tmp/history.sqlite" --json | jq length)" = 11

# ---- SIGINT between runs, keys on a pipe ----------------------------------
project
rm -f "$tmp/console"
mkfifo "$tmp/pipe" 2>/dev/null
(cd "$tmp/p" && exec "$ANANKE" run --watch --no-history <"$tmp/pipe" >"$tmp/console" 2>&1) &
watch_pid=$!
exec {keys_fd}>"$tmp/pipe"
if waiting 1; then
  printf 'f\n' >&"$keys_fd"
  waiting 2 && check "keys on a pipe are read line-wise (f)" ran 2 gamma
  printf '\n' >&"$keys_fd"
  waiting 3 && check "... (an empty line: all)" ran 3 alpha beta gamma
  printf 'f' >&"$keys_fd" # a key whose line has not ended acts at once
  waiting 4 && check "... (f before its newline)" ran 4 gamma
  printf '\n' >&"$keys_fd" # the end of that line is not another key (Enter)
  sleep 0.5
  check "... (and the rest of its line is no key)" test "$(console | grep -c '^-- watch pass 5')" = 0
  # a file name is printed with its control characters as '?'
  sed 's/name: gamma/name: evil/' "$tmp/p/tests/c.test.yaml" >"$tmp/p/tests/"$'e\x1b[2Jvil'".test.yaml"
  waiting 5 && check "a file name with an escape sequence is shown defused" \
    grep -q '^-- watch pass 5: added tests/e?\[2Jvil.test.yaml' <(console)
  printf 'x\n' >&"$keys_fd"
  wait_for 1 '^watch: keys: Enter reruns all tests, f the failed ones, q quits' &&
    ok "an unknown key is answered with the keys"
fi
kill -INT "$watch_pid"
wait "$watch_pid"
rc=$?
watch_pid=""
exec {keys_fd}>&-
check "no sanitizer finding" test "$(console | grep -cE 'Sanitizer|runtime error:')" = 0
check "SIGINT between runs exits with the last run's code (1)" rc_is 1
check "the console of a pipe is not cleared" test "$(grep -c $'\x1b\\[2J' "$tmp/console")" = 0

# ---- options that make no sense with --watch ------------------------------
usage_refused() { # OPTION... : exit 2, the message names --watch and the option
  local out
  out=$(cd "$tmp/p" && timeout 10 "$ANANKE" run --watch "$@" </dev/null 2>&1)
  local got=$?
  [ "$got" = 2 ] && grep -q -- "--watch and $1 do not go together" <<<"$out" && return 0
  echo "exit $got: $out"; return 1
}
check "--watch --shard is a usage error" usage_refused --shard 1/2
check "--watch --record is a usage error" usage_refused --record "$tmp/rec"
check "--watch --dry-run is a usage error" usage_refused --dry-run
check "--watch --last-failed is a usage error" usage_refused --last-failed

# ---- symbolic link loops ---------------------------------------------------
project
ln -s .. "$tmp/p/tests/up"
start_watch --no-history
waiting 1 && check "a symlink loop is not followed (each test once)" ran 1 alpha beta gamma
edit tests/b.test.yaml "# edited"
waiting 2 && check "... and the watch still sees edits" ran 2 beta
key $'\x03' # Ctrl-C on the terminal: SIGINT
end_watch
check "Ctrl-C on the terminal between runs exits with the last run's code (0)" rc_is 0
check "... and says so" grep -q '^watch: exit 0 (the last run' <(console)

# ---- the inotify watch limit -------------------------------------------------
# In a user namespace of its own the limit can be lowered
# (user.max_inotify_watches): five directories against a limit of 2.
if [ -z "${ANANKE_WATCH_POLL:-}" ] && unshare -Ur true 2>/dev/null &&
   grep -q '^#define AN_HAVE_INOTIFY 1' "$B/generated/an_config.h" 2>/dev/null; then
  project
  mkdir -p "$tmp/p/tests/d1/d2/d3"
  sed 's/alpha/deep/' "$tmp/p/tests/a.test.yaml" >"$tmp/p/tests/d1/d2/d3/deep.test.yaml"
  start_watch_limited() {
    rm -f "$tmp/keys" "$tmp/rc" "$tmp/console"
    mkfifo "$tmp/keys"
    (cd "$tmp/p" && script -qfec "exec $(printf '%q ' unshare -Ur sh -c \
       'echo 2 >/proc/sys/user/max_inotify_watches && exec "$0" run --watch --no-history' "$ANANKE")" \
       /dev/null <"$tmp/keys" >"$tmp/console" 2>&1; echo $? >"$tmp/rc") &
    watch_pid=$!
    exec {keys_fd}>"$tmp/keys"
  }
  start_watch_limited
  if waiting 1; then
    check "the watch limit reached is a clear warning naming it" \
      grep -qE "warning: cannot watch '.*': the inotify watch limit is reached \(fs.inotify.max_user_watches / user.max_inotify_watches = 2" <(console)
    check "... and the watch polls instead" grep -q 'waiting for changes (polling:' <(console)
    edit tests/d1/d2/d3/deep.test.yaml "# edited"
    waiting 2 && check "... and still reruns an edited test" ran 2 deep
  else
    bad "the watch under a lowered inotify limit never became idle"
  fi
  key q
  end_watch
else
  echo "note: the inotify limit case needs unshare -U and an inotify build; skipped"
fi

finish
