#!/usr/bin/env bash
# ananke's two HTTP clients compared on the same AG-UI exchanges: the
# HTTP/1.1 client of proto/h1.c (what a plain http:// AG-UI turn uses) and
# libcurl (ANANKE_HTTP_CLIENT=curl). Each run's JSON report, with what
# changes from run to run taken out (times, ids, ports), must be the same.
#
#   A. raw_agent.py answers byte by byte, one way per test: every body
#      framing, 1xx, 204, redirects, HTTP errors, an answer cut in its head
#      or its body, a reset, an empty reply, HTTP/0.9, a broken chunk, a
#      broken length, a header without colon, more header bytes than
#      max_header_bytes, a stall, a trickled head (slowloris), a kept
#      connection the agent drops; run at -j 1 (one loop: connections
#      reused from test to test) and at -j 4 --loops 2.
#   B. the e2e cases that run against ananke-mock agui (tests/e2e/*/ with a
#      scenario.yaml and an `ananke run` command), each run once per client
#      against a fresh mock.
#   C. a proxy variable sends the turn to libcurl (which then uses the
#      proxy), whatever the client would take.
#
# Output lands in tests/clients/out/. Usage: tests/clients/run.sh [CASE...]
# (CASE: e2e case names for B; none: all).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
suite=clients
pass=0 fail=0
need_jq
command -v python3 >/dev/null 2>&1 || broken "python3 is not installed"
ANANKE=${ANANKE:-$tests_build/ananke}
MOCK=$tests_build/ananke-mock
export NO_COLOR=1
OUT=$here/out
rm -rf "$OUT"; mkdir -p "$OUT"
pids=()
trap 'stop_pids "${pids[@]}"' EXIT

# normal FILE: the report without what differs between two runs of the
# same exchanges: durations and clocks, ids, ports, the report's own
# description of the run (its command line and paths)
normal() {
  jq -S 'del(.run, .meta, .environment, .started, .finished) |
    walk(if type == "object" then
           with_entries(select(.key | test("(_ms|_at|Ms|duration|time|timestamp|_id|Id|id|pid)$") | not))
         elif type == "string" then
           gsub("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"; "UUID") |
           gsub("[0-9a-f]{32}"; "HEX32") | gsub("[0-9a-f]{16}"; "HEX16") |
           gsub("127\\.0\\.0\\.1:[0-9]+"; "127.0.0.1:PORT") |
           gsub("[0-9]+(\\.[0-9]+)? ?(?<u>ms|milliseconds|s)\\b"; "N \(.u)")
         else . end)' "$1"
}

# same NAME A B: the two reports are the same once normalised
same() {
  local name=$1 a=$2 b=$3
  if [ ! -s "$a" ] || [ ! -s "$b" ]; then bad "$name: a report is missing"; return; fi
  if ! normal "$a" >"$OUT/a.norm" 2>&1 || ! normal "$b" >"$OUT/b.norm" 2>&1; then
    bad "$name: a report cannot be read: $(head -c 300 "$OUT/a.norm" "$OUT/b.norm")"
  elif diff -u "$OUT/a.norm" "$OUT/b.norm" >"$OUT/diff" 2>&1; then
    ok "$name"
  else
    bad "$name: the reports differ (h1 -, curl +)"
    head -n 40 "$OUT/diff" | sed 's/^/    /'
  fi
}

# ---- A. raw_agent.py ----
if spawn_server "$OUT/raw.port" 0.05 "$OUT/raw.stdout" "$OUT/raw.stderr" python3 "$here/raw_agent.py" "$OUT/raw.port"; then
  pids+=("$spawned_pid")
  RAW_URL="http://127.0.0.1:$(cat "$OUT/raw.port")/agent"
  export RAW_URL
  S=$OUT/suite
  mkdir -p "$S"
  cat >"$S/ananke.config.yaml" <<'EOF'
version: "1.0"
target:
  type: agui
  endpoint: "${ENV.RAW_URL}/${MODE}"
  agentId: raw
  timeout_ms: 1500
EOF
  n=0
  for m in cl chunked close http10 continue lf untyped nocontent html gzip redirect redirect-abs \
    error500 notfound unavailable cut-cl cut-chunked cut-head reset empty http09 badchunk badlength \
    nocolon bighead stall silent slowloris dropnext cl chunked cl; do
    n=$((n + 1))
    printf 'version: "1.0"\nname: "%02d %s"\nhooks:\n  - cmd: ["echo", "{\\"MODE\\": \\"%s\\"}"]\nturns:\n  - user: "hi"\n' \
      "$n" "$m" "$m" >"$S/$(printf %02d "$n")-$m.test.yaml"
  done
  for how in "-j 1" "-j 4 --loops 2"; do
    read -r -a hw <<<"$how"
    tag=${how// /}
    (cd "$S" && timeout -k 5 120 "$ANANKE" run . "${hw[@]}" -r json:"$OUT/raw-h1$tag.json") >"$OUT/raw-h1$tag.stdout" 2>&1
    (cd "$S" && ANANKE_HTTP_CLIENT=curl timeout -k 5 120 "$ANANKE" run . "${hw[@]}" -r json:"$OUT/raw-curl$tag.json") \
      >"$OUT/raw-curl$tag.stdout" 2>&1
    same "A: raw exchanges, $how: the same report from both clients" "$OUT/raw-h1$tag.json" "$OUT/raw-curl$tag.json"
  done
  # the comparison means something only if the exchanges ended as planned
  # shellcheck disable=SC2016 # a jq program
  check "A: each exchange ended as it should (h1)" jq_true "$OUT/raw-h1-j1.json" '
    [.tests[] | {key: (.name | sub("^[0-9]+ "; "")), value: (.status + " " + (.error.message // ""))}]
    | from_entries as $r
    | ($r.cl | startswith("pass")) and ($r.chunked | startswith("pass")) and ($r.close | startswith("pass"))
      and ($r.http10 | startswith("pass")) and ($r.continue | startswith("pass")) and ($r.lf | startswith("pass"))
      and ($r.untyped | startswith("pass")) and ($r.dropnext | startswith("pass"))
      and ($r.nocontent | test("status 204 No Content"))
      and ($r.redirect | test("redirect to"))
      and ($r.error500 | test("HTTP 500: oops"))
      and ($r["cut-cl"] | startswith("error")) and ($r.reset | startswith("error"))
      and ($r.empty | test("Empty reply from server")) and ($r.http09 | test("HTTP/0.9"))
      and ($r.bighead | test("response headers larger than max_header_bytes"))
      and ($r.stall | test("no RUN_FINISHED within 1500 ms")) and ($r.slowloris | test("no RUN_FINISHED within 1500 ms"))'
else
  pids+=("$spawned_pid")
  bad "A: raw_agent.py did not start: $(head -c 300 "$OUT/raw.stderr")"
fi

# ---- B. the e2e cases against ananke-mock agui ----
# run_e2e CASE CLIENT: the case's command with a JSON report, against a
# fresh mock (and fresh openai/http mocks when the case has them)
run_e2e() {
  local dir=$1 client=$2 name out mp="" op="" hp=""
  name=$(basename "$dir")
  out=$OUT/e2e/$name
  mkdir -p "$out"
  spawn_server "$out/$client.port" 0.05 /dev/null "$out/$client.mock.err" \
    "$MOCK" agui --scenario "$dir/scenario.yaml" --port-file "$out/$client.port"
  mp=$spawned_pid
  ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$out/$client.port")/agent"
  export ANANKE_MOCK_URL
  export ANANKE_OPENAI_URL="http://127.0.0.1:9/v1" ANANKE_HTTP_URL="http://127.0.0.1:9"
  if [ -f "$dir/openai.yaml" ]; then
    spawn_server "$out/$client.oport" 0.05 /dev/null /dev/null \
      "$MOCK" openai --scenario "$dir/openai.yaml" --port-file "$out/$client.oport"
    op=$spawned_pid
    ANANKE_OPENAI_URL="http://127.0.0.1:$(cat "$out/$client.oport")/v1"
  fi
  if [ -f "$dir/http.yaml" ]; then
    spawn_server "$out/$client.hport" 0.05 /dev/null /dev/null \
      "$MOCK" http --scenario "$dir/http.yaml" --port-file "$out/$client.hport"
    hp=$spawned_pid
    ANANKE_HTTP_URL="http://127.0.0.1:$(cat "$out/$client.hport")"
  fi
  local args="run ." envs=()
  [ -f "$dir/cmd" ] && args=$(head -n1 "$dir/cmd")
  [ -f "$dir/env" ] && mapfile -t envs < <(grep -v '^#' "$dir/env" | grep .)
  local hc=""
  [ "$client" = curl ] && hc=curl
  rm -rf "$dir/out"; mkdir -p "$dir/out" # as tests/e2e/run.sh leaves it (recordings go there)
  # shellcheck disable=SC2163 # each line is NAME=VALUE
  (cd "$dir" && export CASE_DIR="$PWD" && for e in "${envs[@]}"; do export "$e"; done &&
    ANANKE_HTTP_CLIENT=$hc eval "timeout -k 5 120 \"\$ANANKE\" $args -r json:\"$out/$client.json\"") \
    >"$out/$client.stdout" 2>&1
  echo $? >"$out/$client.rc"
  stop_pids "$mp" "$op" "$hp"
}

# Cases left out, and why: their reports differ between two runs of the
# same client (random retries, time-driven verdicts, adaptive repeats,
# simulators, which of two gaps is the longest), or they do not produce one
# report from `run` (a usage error, an extension only ananke-ext has).
skip_e2e() {
  case $1 in
    adaptive* | dynamic | replay-dynamic | timeout | retries | flaky | stats-* | jsonl-input-sources | \
      interrupt | stdout-closed | shard | history* | compare-* | view* | select-last-failed | \
      ext-* | record-refused | color-auto | failfast | jsonl-judge | jsonl-script-parallel | \
      assert-timing | tool-coverage-no-servers)
      return 0 ;;
  esac
  return 1
}

cases=()
if [ $# -gt 0 ]; then
  for c in "$@"; do cases+=("$tests_root/tests/e2e/$(basename "$c")"); done
else
  for d in "$tests_root"/tests/e2e/*/; do
    d=${d%/}
    [ -f "$d/scenario.yaml" ] || continue
    a=run
    [ -f "$d/cmd" ] && a=$(head -n1 "$d/cmd")
    case $a in run*) ;; *) continue ;; esac
    skip_e2e "$(basename "$d")" || cases+=("$d")
  done
fi
for d in "${cases[@]}"; do
  name=$(basename "$d")
  run_e2e "$d" h1
  run_e2e "$d" curl
  o=$OUT/e2e/$name
  if [ "$(cat "$o/h1.rc")" != "$(cat "$o/curl.rc")" ]; then
    bad "B: $name: exit $(cat "$o/h1.rc") with h1, $(cat "$o/curl.rc") with curl"
    continue
  fi
  same "B: $name: the same report from both clients" "$o/h1.json" "$o/curl.json"
done

# ---- C. a proxy in the environment: libcurl takes the turn ----
P=$OUT/proxy
mkdir -p "$P"
if spawn_server "$P/port" 0.05 /dev/null "$P/mock.err" "$MOCK" agui \
  --scenario "$tests_root/tests/e2e/assert-text/scenario.yaml" --port-file "$P/port"; then
  pids+=("$spawned_pid")
  printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "http://127.0.0.1:%s/agent"\n  agentId: a\n  timeout_ms: 5000\n' \
    "$(cat "$P/port")" >"$P/ananke.config.yaml"
  printf 'version: "1.0"\nname: t\nturns:\n  - user: "hi"\n' >"$P/a.test.yaml"
  (cd "$P" && http_proxy=http://127.0.0.1:9 timeout 60 "$ANANKE" run . -r json:"$P/r.json") >"$P/stdout" 2>&1
  check "C: with http_proxy set, the turn went to the proxy (libcurl's way), not to the agent" \
    jq_true "$P/r.json" '.tests[0].status == "error" and (.tests[0].error.message | test("127.0.0.1:9|port 9"))'
  (cd "$P" && timeout 60 "$ANANKE" run . -r json:"$P/r2.json") >"$P/stdout2" 2>&1
  check "C: without it, the agent answered" jq_true "$P/r2.json" '.tests[0].error.message // "" | test("127.0.0.1:9|port 9") | not'
else
  pids+=("$spawned_pid")
  bad "C: the mock did not start"
fi

finish
