#!/usr/bin/env bash
# End-to-end cases: one directory per case under tests/e2e/, no C needed.
#
# A case directory holds:
#   cmd             the ananke arguments, one line (default: "run")
#   scenario.yaml   optional: ananke-mock agui is started with it on a free
#                   port of 127.0.0.1; its URL is in $ANANKE_MOCK_URL (the
#                   case's config uses endpoint: "${ENV.ANANKE_MOCK_URL}")
#   openai.yaml     optional: ananke-mock openai is started with it (for an
#                   openai target, judges, generators); its base URL is in
#                   $ANANKE_OPENAI_URL ("http://127.0.0.1:PORT/v1")
#   http.yaml       optional: ananke-mock http (seed 004's run-case agent) is
#                   started with it; its base URL is in $ANANKE_HTTP_URL
#                   ("http://127.0.0.1:PORT", the target's endpoint)
#   exit            the expected exit code (default 0)
#   expect          lines that must appear, in this order, in stdout+stderr
#                   after durations are normalised ("123 ms" -> "N ms")
#   reject          lines that must not appear anywhere
#   expect_requests lines that must appear, in order, in the mock's request log
#   expect_openai_requests  the same for the openai mock's log
#   expect_http_requests    the same for the http mock's log
#   statuses        "STATUS NAME" per test, in run order (pass/fail/error/skip),
#                   checked against the JSON report the harness asks for
#   env             optional NAME=VALUE lines exported for the command
#                   (CASE_DIR, the case directory's absolute path, is set too)
#   check.sh        optional extra checks, run in the case directory with
#                   $OUT (the out/ directory) set; must exit 0
#   serial          optional, empty: the case measures time, so it runs
#                   alone (the others run two at a time; E2E_JOBS=1: one)
# plus the config and test files the command reads. Output lands in out/.
# A directory is a case when it has exit, expect or check.sh (before, one
# with only check.sh was never run by the whole sweep: seven were not).
# Usage: tests/e2e/run.sh [CASE...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
B=$tests_build
ANANKE="${ANANKE:-$B/ananke}"   # a wrapper (valgrind) may stand in
MOCK="$B/ananke-mock"
export ANANKE MOCK NO_COLOR=1
pass=0 fail=0

# normalise, contains_in_order: tests/lib.sh

# start_mock PROTO SCENARIO TAG REQUESTS, inside run_case (its $out, $name):
# `ananke-mock PROTO` on SCENARIO with its port in $out/TAG-port ($out/port
# for TAG mock), its requests in $out/REQUESTS, its output in $out/TAG.stdout
# and .stderr; its pid in $spawned_pid. Fails, saying so, when it does not
# start; the caller stops it either way.
start_mock() {
  local proto=$1 scenario=$2 tag=$3 requests=$4 port_file
  port_file=$out/$tag-port
  [ "$tag" = mock ] && port_file=$out/port
  spawn_server "$port_file" 0.05 "$out/$tag.stdout" "$out/$tag.stderr" \
    "$MOCK" "$proto" --scenario "$scenario" --port-file "$port_file" --requests "$out/$requests" &&
    return 0
  local what="$proto mock"
  [ "$proto" = agui ] && what=mock
  echo "FAIL $name: $what did not start"; sed 's/^/    /' "$out/$tag.stderr"
  return 1
}

run_case() {
  local dir=$1 name
  name=$(basename "$dir")
  local out="$dir/out"
  rm -rf "$out"; mkdir -p "$out"
  local mock_pid=""
  if [ -f "$dir/scenario.yaml" ]; then
    start_mock agui "$dir/scenario.yaml" mock requests.jsonl
    local started=$?
    mock_pid=$spawned_pid
    [ "$started" -eq 0 ] || { stop_pids "$mock_pid"; fail=$((fail + 1)); return; }
    export ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$out/port")/agent"
  else
    export ANANKE_MOCK_URL="http://127.0.0.1:9/agent"
  fi
  local oa_pid=""
  if [ -f "$dir/openai.yaml" ]; then
    start_mock openai "$dir/openai.yaml" oa openai-requests.jsonl
    local started=$?
    oa_pid=$spawned_pid
    [ "$started" -eq 0 ] || { stop_pids "$oa_pid" "$mock_pid"; fail=$((fail + 1)); return; }
    export ANANKE_OPENAI_URL="http://127.0.0.1:$(cat "$out/oa-port")/v1"
  else
    export ANANKE_OPENAI_URL="http://127.0.0.1:9/v1"
  fi
  local http_pid=""
  if [ -f "$dir/http.yaml" ]; then
    start_mock http "$dir/http.yaml" http http-requests.jsonl
    local started=$?
    http_pid=$spawned_pid
    [ "$started" -eq 0 ] || { stop_pids "$http_pid" "$oa_pid" "$mock_pid"; fail=$((fail + 1)); return; }
    export ANANKE_HTTP_URL="http://127.0.0.1:$(cat "$out/http-port")"
  else
    export ANANKE_HTTP_URL="http://127.0.0.1:9"
  fi
  local args="run ."
  [ -f "$dir/cmd" ] && args=$(head -n1 "$dir/cmd")
  [ -f "$dir/statuses" ] && args="$args --reporter json:out/results.json"
  local envs=()
  [ -f "$dir/env" ] && mapfile -t envs < <(grep -v '^#' "$dir/env" | grep .)
  local want=0
  [ -f "$dir/exit" ] && want=$(tr -d '[:space:]' <"$dir/exit")
  local got
  (cd "$dir" && export CASE_DIR="$PWD" && for e in "${envs[@]}"; do export "$e"; done && eval "timeout -k 5 120 \"\$ANANKE\" $args") >"$out/stdout" 2>"$out/stderr"
  got=$?
  cat "$out/stdout" "$out/stderr" | normalise >"$out/combined"
  local ok=1 why=()
  [ "$got" = "$want" ] || { ok=0; why+=("exit $got, expected $want"); }
  if [ -f "$dir/expect" ] && ! contains_in_order "$dir/expect" "$out/combined" >"$out/why"; then
    ok=0; why+=("output: $(cat "$out/why")")
  fi
  if [ -f "$dir/reject" ]; then
    while IFS= read -r line; do
      [ -n "$line" ] && grep -qF -- "$line" "$out/combined" && { ok=0; why+=("unwanted: $line"); }
    done <"$dir/reject"
  fi
  if [ -f "$dir/expect_requests" ] &&
     ! contains_in_order "$dir/expect_requests" "$out/requests.jsonl" >"$out/why"; then
    ok=0; why+=("requests: $(cat "$out/why")")
  fi
  if [ -f "$dir/expect_openai_requests" ] &&
     ! contains_in_order "$dir/expect_openai_requests" "$out/openai-requests.jsonl" >"$out/why"; then
    ok=0; why+=("openai requests: $(cat "$out/why")")
  fi
  if [ -f "$dir/expect_http_requests" ] &&
     ! contains_in_order "$dir/expect_http_requests" "$out/http-requests.jsonl" >"$out/why"; then
    ok=0; why+=("http requests: $(cat "$out/why")")
  fi
  if [ -f "$dir/statuses" ]; then
    if ! jq -r '.tests[] | "\(.status) \(.name)"' "$out/results.json" >"$out/statuses" 2>&1 ||
       ! diff -u "$dir/statuses" "$out/statuses" >"$out/why"; then
      ok=0; why+=("statuses: $(cat "$out/why" "$out/statuses" 2>/dev/null | tail -n 12)")
    fi
  fi
  if [ -f "$dir/check.sh" ] && ! (cd "$dir" && OUT="$out" bash ./check.sh >"$out/check" 2>&1); then
    ok=0; why+=("check.sh: $(tail -n 5 "$out/check")")
  fi
  # the mock runs until check.sh is done: checks may run ananke again
  stop_pids "$mock_pid" "$oa_pid" "$http_pid"
  if [ $ok = 1 ]; then
    pass=$((pass + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name"
    for w in "${why[@]}"; do echo "    $w"; done
    echo "    --- output ---"; sed 's/^/    | /' "$out/combined" | head -n 40
  fi
}

cases=()
if [ $# -gt 0 ]; then
  for c in "$@"; do cases+=("$here/$(basename "$c")"); done
else
  for d in "$here"/*/; do [ -f "$d/exit" ] || [ -f "$d/expect" ] || [ -f "$d/check.sh" ] && cases+=("${d%/}"); done
fi
# Four cases at a time (each has its own out/, mocks and ports; most of a
# case is waiting on them: two at a time left the two cores 65 % idle);
# the cases with a `serial` file measure time and run alone, after the
# others. Each case's lines are kept in $logs/N (its failures in
# $logs/N.rc) and shown in case order as soon as the cases before it are done.
jobs=${E2E_JOBS:-4}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
shown=0
flush() {
  while [ -f "$logs/$((shown + 1)).rc" ]; do
    shown=$((shown + 1))
    cat "$logs/$shown"
    if [ "$(cat "$logs/$shown.rc")" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  done
}
one() { # N DIR: run_case counting in counters of its own
  local pass=0 fail=0
  run_case "$2" >"$logs/$1" 2>&1
  echo "$fail" >"$logs/$1.rc"
}
n=0 running=0 serial=()
for c in "${cases[@]}"; do
  n=$((n + 1))
  if [ -f "$c/serial" ] || [ "$jobs" -le 1 ]; then
    serial+=("$n")
  else
    one "$n" "$c" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  fi
  flush
done
wait
flush
for k in "${serial[@]}"; do
  one "$k" "${cases[$((k - 1))]}"
  flush
done
# a case that died without its verdict fails (and the ones after it are shown)
while [ "$shown" -lt "$n" ]; do
  if [ ! -f "$logs/$((shown + 1)).rc" ]; then
    echo "FAIL ${cases[$shown]##*/}: no verdict" >>"$logs/$((shown + 1))"
    echo 1 >"$logs/$((shown + 1)).rc"
  fi
  flush
done
echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
