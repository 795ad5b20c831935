#!/usr/bin/env bash
# libcurl and libmicrohttpd are loaded on first use, not at startup
# (src/lib/core/lazy.h, docs/performance.md "Issue 26"):
#   - the programs have no DT_NEEDED entry for them (readelf -d);
#   - `ananke --version`, `validate`, a run of an ACP agent on stdio (with
#     and without its history) and `history` never load libcurl nor libmicrohttpd (LD_DEBUG=files of the ananke process
#     itself), nor does a run of an AG-UI agent over plain http:// (proto/h1.c
#     takes the turn), while one that libcurl takes (ANANKE_HTTP_CLIENT=curl,
#     as https or a proxy would) does load it (the control: the check sees a
#     load when there is one);
#   - when a library cannot be loaded (LD_LIBRARY_PATH puts a broken
#     libcurl.so.4 / libmicrohttpd.so.12 first), what needs it fails with a
#     message naming the library and what needed it, and what does not need
#     it still works.
# Ends with "lazy-load: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"
suite=lazy-load pass=0 fail=0
B=$tests_build
ANANKE=$B/ananke
MOCK=$B/ananke-mock
export MOCK
[ -x "$ANANKE" ] && [ -x "$MOCK" ] || broken "no ananke or ananke-mock in $B"
command -v readelf >/dev/null || broken "readelf is not installed (binutils)"
tmp=$(mktemp -d)
mock_pid=""
trap 'stop_pids "$mock_pid"; rm -rf "$tmp"' EXIT
F=$here/lazy-load

# ---- no DT_NEEDED ----------------------------------------------------------
for prog in ananke ananke-mock ananke-ext; do
  [ -x "$B/$prog" ] || continue
  needed=$(readelf -d "$B/$prog" | grep NEEDED)
  check "$prog has no DT_NEEDED for libcurl or libmicrohttpd" \
    bash -c '! grep -E "libcurl|libmicrohttpd" <<<"$1" && grep -q libc.so <<<"$1"' _ "$needed"
done

# loads DIR COMMAND...: run COMMAND (ananke) in DIR with LD_DEBUG=files; the
# loader's log of that process alone (not of the agents it starts) in
# $tmp/ld, its output in $tmp/out, its exit code in $rc
loads() {
  local dir=$1; shift
  rm -f "$tmp"/ld.* "$tmp/pid"
  (cd "$dir" && LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld" \
     bash -c 'echo $$ >"$0"; exec "$@"' "$tmp/pid" "$@") >"$tmp/out" 2>&1
  rc=$?
  cp "$tmp/ld.$(cat "$tmp/pid")" "$tmp/ld" 2>/dev/null || : >"$tmp/ld"
}
# loaded: the last loads' process opened the library (LD_DEBUG's file= line)
loaded() { grep -q "file=$1" "$tmp/ld"; }
# never LIB...: it ran (exit 0, a loader log) and opened none of them
never() {
  [ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$tmp/out"; return 1; }
  grep -q 'file=libc.so' "$tmp/ld" || { echo "no loader log"; return 1; }
  local lib
  for lib in "$@"; do
    if loaded "$lib"; then echo "$lib was loaded:"; grep "file=$lib" "$tmp/ld"; return 1; fi
  done
}

loads "$F/acp" "$ANANKE" --version
check "--version loads neither libcurl nor libmicrohttpd" never libcurl libmicrohttpd
loads "$F/acp" "$ANANKE" validate hello.test.yaml
check "validate loads neither libcurl nor libmicrohttpd" never libcurl libmicrohttpd
loads "$F/acp" "$ANANKE" run --no-history hello.test.yaml
check "a run of an ACP agent on stdio loads neither" never libcurl libmicrohttpd
loads "$F/acp" "$ANANKE" run --history "$tmp/h.sqlite" hello.test.yaml
check "... nor with its run history written" never libcurl libmicrohttpd
loads "$F/acp" "$ANANKE" history --history "$tmp/h.sqlite"
listed() { never libcurl libmicrohttpd && grep -q "1 passed" "$tmp/out"; }
check "history loads neither (and lists the run)" listed

# an AG-UI run over plain http:// loads neither; the control: one that
# libcurl takes does load libcurl (and still not libmicrohttpd)
spawn_server "$tmp/port" 0.05 "$tmp/mock.out" "$tmp/mock.err" \
  "$MOCK" agui --scenario "$F/agui/scenario.yaml" --port-file "$tmp/port" ||
  broken "ananke-mock agui did not start: $(cat "$tmp/mock.err")"
mock_pid=$spawned_pid
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$tmp/port")/agent"
loads "$F/agui" "$ANANKE" run --no-history hello.test.yaml
check "a run of an AG-UI agent over http:// passes and loads neither (proto/h1.c)" listed
loads "$F/agui" env ANANKE_HTTP_CLIENT=curl "$ANANKE" run --no-history hello.test.yaml
check "the control: one that libcurl takes passes and loads libcurl, not libmicrohttpd" \
  bash -c '[ "$1" -eq 0 ] && grep -q "file=libcurl" "$2" && ! grep -q "file=libmicrohttpd" "$2"' \
  _ "$rc" "$tmp/ld"

# ---- a library that cannot be loaded ---------------------------------------
mkdir -p "$tmp/broken"
echo "not a library" >"$tmp/broken/libcurl.so.4"
echo "not a library" >"$tmp/broken/libmicrohttpd.so.12"
broken_run() { # DIR COMMAND...: output in $tmp/out, exit code in $rc
  local dir=$1; shift
  (cd "$dir" && LD_LIBRARY_PATH="$tmp/broken" timeout 60 "$@") >"$tmp/out" 2>&1
  rc=$?
}
says() { # EXIT TEXT: the last broken_run exited EXIT and said TEXT
  [ "$rc" -eq "$1" ] && grep -qF "$2" "$tmp/out" && return 0
  echo "exit $rc (expected $1), output:"; cat "$tmp/out"
  return 1
}
broken_run "$F/acp" "$ANANKE" --version
check "without libcurl: --version works" says 0 "ananke "
broken_run "$F/acp" "$ANANKE" run --no-history hello.test.yaml
check "without libcurl: an ACP run passes" says 0 "1 passed"
broken_run "$F/agui" "$ANANKE" run --no-history hello.test.yaml
check "without libcurl: an AG-UI run over http:// passes" says 0 "1 passed"
broken_run "$F/agui" env ANANKE_HTTP_CLIENT=curl "$ANANKE" run --no-history hello.test.yaml
check "without libcurl: an AG-UI turn libcurl takes is an ERROR naming libcurl" \
  says 1 "needs libcurl (libcurl.so.4), which could not be loaded: $tmp/broken/libcurl.so.4"
broken_run "$F/acp" "$ANANKE" view --history "$tmp/none.sqlite" --port 0
check "without libmicrohttpd: ananke view says so" \
  says 2 "ananke view needs libmicrohttpd (libmicrohttpd.so.12), which could not be loaded"
# the control: with the library, view fails on the missing history instead
(cd "$F/acp" && timeout 60 "$ANANKE" view --history "$tmp/none.sqlite" --port 0) >"$tmp/out" 2>&1
check "with libmicrohttpd: ananke view does not say so" bash -c '! grep -q libmicrohttpd "$1"' _ "$tmp/out"
finish
