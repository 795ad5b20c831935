# Helpers of the mock tests that start `ananke-mock PROTOCOL` servers (mcp.sh,
# a2a.sh); source it after setting $suite, $pass and $fail. It sources
# tests/lib.sh (ok, bad, finish, broken, tests_build) and adds:
#   same NAME EXPECTED ACTUAL   one counted check: the two strings are equal
#   mock_start NAME PROTOCOL [FLAGS...]   start ananke-mock PROTOCOL on a free
#       port (--port 0 --port-file), wait for its line on stdout; its pid in
#       $PID, its URL in $URL, its port in $PORT, its output in
#       $TMP/NAME.{out,err}; stopped by the EXIT trap if still running
#   mock_stop NAME PID...   SIGTERM; each must exit 0, all within 2 s
# It makes $TMP (removed on exit) and $MOCK (the binary) and fails the suite
# when the binary, jq or curl is missing.
# shellcheck shell=bash
# shellcheck disable=SC2034
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

MOCK=$tests_build/ananke-mock
TMP=$(mktemp -d)
mock_pids=()
mock_cleanup() {
  local p
  for p in "${mock_pids[@]}"; do
    kill -TERM "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  rm -rf "$TMP"
}
trap mock_cleanup EXIT

[ -x "$MOCK" ] || broken "no executable at $MOCK (set ANANKE_BUILD)"
command -v jq >/dev/null && command -v curl >/dev/null || broken "jq or curl is not installed"

same() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: expected [$2], got [$3]"; fi
}

mock_start() {
  local name=$1 proto=$2
  shift 2
  rm -f "$TMP/$name.port"
  "$MOCK" "$proto" --port 0 --port-file "$TMP/$name.port" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
  PID=$!
  mock_pids+=("$PID")
  for _ in $(seq 100); do
    [ -s "$TMP/$name.port" ] && [ -s "$TMP/$name.out" ] && break
    sleep 0.05
  done
  URL=$(head -n1 "$TMP/$name.out")
  PORT=$(cat "$TMP/$name.port" 2>/dev/null)
}

mock_stop() {
  local name=$1 t0 p rcs=() want=()
  shift
  t0=$(date +%s%N)
  kill -TERM "$@"
  for p in "$@"; do
    wait "$p"
    rcs+=("$?")
    want+=(0)
  done
  local took=$((($(date +%s%N) - t0) / 1000000))
  same "$name: exit status after SIGTERM" "${want[*]}" "${rcs[*]}"
  if [ "$took" -lt 2000 ]; then ok "$name: stops promptly"; else bad "$name: took $took ms to stop"; fi
}
