#!/usr/bin/env bash
# The AG-UI project's own conformance corpus, replayed through ananke end to
# end: for every fixture listed in MANIFEST.txt, `ananke-mock agui` serves the
# fixture's `stream` verbatim as SSE (`run: none`, one `event:` step per
# event), `ananke run` (strict, the default) runs one turn against it with a
# JSON report, and the report is compared with the fixture's `expect`.
# Adding a fixture to the corpus adds a case here; nothing below names one
# except the tables of rules and relaxations.
#
# Corpus: $ANANKE_AGUI_CORPUS, default <repo>/../shared/data/agui-conformance/1.1
# (read its README). Output lands in tests/agui-corpus/out/<fixture>/.
# Last line: "agui-corpus: N passed, N failed".
#
# What is compared (expect key -> what ananke shows of it):
#   outcome completed  the turn has no protocol error: status pass, or, with
#                      `runError`, status error with code AN_ERUN ("agent
#                      reported RUN_ERROR: <message>") containing that text
#   outcome failed     status error, code AN_EPROTO, and the message names
#                      the rule of RULES below ("[rule-id]"); a fixture not in
#                      RULES must contain its `errorContains` instead
#   messages           assistant text (the turn's text: assistant deltas in
#                      arrival order) and tool calls (id, name, argument text)
#   state              subset match against the turn's final state
#   warnings           see relaxation R1
#   noWarnings         no "protocol warning"/"protocol violation" in the turn
#
# Not checked, because ananke's reports cannot show them:
#   eventTypes, eventTypesAbsent, eventPaths, eventAbsentPaths
#       ananke hands no events to application code: it reduces them into a
#       transcript; its raw frames are the bytes before verification.
#   messageCount, and in `messages` every non-assistant message (user,
#   tool, reasoning, activity), metadata, subagentRunId
#       the reports hold the turn's assistant text and tool calls, not the
#       reconstructed message history; for the same reason `messages` is not
#       checked at all when the stream holds a MESSAGES_SNAPSHOT (the history
#       it reconciles is not in the report; the streamed text is).
#   request, requestAbsentPaths, `input`, `client`
#       what ananke sends comes from the test's turns (no way to seed prior
#       messages or pin a peer era), and ananke does not declare a
#       protocolVersion in its requests.
#
# Relaxations for a third-party client (corpus README, "If you ever point this
# corpus at a third-party client"), each applied below by its id:
#
# | id | fixtures        | relaxation                 | why                                           |
# |----|-----------------|----------------------------|-----------------------------------------------|
# | R1 | all             | `warnings`: each substring  | warning is SHOULD-level and the substrings are |
# |    |                 | is looked for; if absent,  | the TypeScript client's wording; the rule is   |
# |    |                 | any warning of the turn    | "warn", which ananke does in its own words     |
# |    |                 | satisfies it (noted)       |                                               |
# | R1 | all             | `noWarnings`: only protocol| ananke's other warnings are report notes (e.g. |
# |    |                 | findings count             | "run finished with outcome 'interrupt'"), not  |
# |    |                 |                            | complaints about legal traffic                 |
# | R2 | era-*           | `warnings` and `request`   | era shims are what the spec only permits (MAY  |
# |    |                 | not checked                | downgrade for an older peer); ananke has none  |
# | R3 | unknown-enum-   | `outcome`/`errorContains`  | admitted gap: the fixture pins the TS client's |
# |    | value-role-fatal| accept completed too       | fatal reading where the spec says strip; a     |
# |    |                 |                            | client following the spec must not fail here   |
# | R4 | all             | `expectOverrides` ignored  | they describe the first-party .NET/TS lanes,   |
# |    |                 |                            | not the protocol                               |
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${ANANKE_BUILD:-build}
case "$B" in /*) ;; *) B="$root/$B" ;; esac
ANANKE="$B/ananke"
MOCK="$B/ananke-mock"
CORPUS=${ANANKE_AGUI_CORPUS:-$root/../shared/data/agui-conformance/1.1}
export NO_COLOR=1
pass=0 fail=0

# The ananke rule each "failed" fixture must be rejected under.
declare -A RULES=(
  [chunk-conflicting-role-fatal]=chunk-conflict
  [chunk-conflicting-tool-name-fatal]=chunk-conflict
  [content-without-start-fatal]=open-before-use
  [custom-closes-chunk-stream-fatal]=chunk-first-needs-id
  [event-after-run-finished-fatal]=after-run-finished
  [first-chunk-missing-id-fatal]=chunk-first-needs-id
  [first-event-not-run-started-fatal]=first-event
  [first-tool-chunk-missing-name-fatal]=chunk-first-needs-id
  [malformed-known-field-fatal]=field-type
  [nested-run-started-fatal]=nested-run-started
  [open-message-at-run-finished-fatal]=closed-before-finish
  [reasoning-discipline-verified]=open-before-use
  [reasoning-message-wrong-role-fatal]=field-type
  [run-finished-with-active-subagent-fatal]=closed-before-finish
  [step-finished-without-start-fatal]=open-before-use
  [subagent-attribution-mismatch-fatal]=subagent-attribution
  [subagent-finished-unstarted-fatal]=open-before-use
  [subagent-started-missing-name-fatal]=required-field
  [unknown-enum-value-role-fatal]=field-type
  [unknown-outcome-array-fatal]=field-type
)
R3_EITHER_OUTCOME=unknown-enum-value-role-fatal

finish() {
  echo "agui-corpus: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
}
broken() {
  echo "FAIL agui-corpus: $*" >&2
  fail=$((fail + 1))
  finish
}

command -v jq >/dev/null 2>&1 || broken "jq is not installed (run scripts/setup.sh)"
[ -x "$ANANKE" ] && [ -x "$MOCK" ] || broken "$ANANKE or $MOCK not built"
[ -f "$CORPUS/streams/MANIFEST.txt" ] ||
  broken "the AG-UI conformance corpus is missing: no $CORPUS/streams/MANIFEST.txt (set ANANKE_AGUI_CORPUS)"

out="$here/out"
rm -rf "$out"; mkdir -p "$out"

mock_pid=""
stop_mock() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null; wait "$mock_pid" 2>/dev/null; fi
  mock_pid=""
}
trap stop_mock EXIT

# jq: is `want` a subset of `got` (objects on want's keys, arrays same length)
SUBSET='def sub($w; $g):
  if ($w|type) == "object" then ($g|type) == "object" and all($w|keys[]; . as $k | sub($w[$k]; $g[$k]))
  elif ($w|type) == "array" then ($g|type) == "array" and ($w|length) == ($g|length)
    and all(range($w|length); . as $i | sub($w[$i]; $g[$i]))
  else $w == $g end;'

run_fixture() {
  local f=$1 name dir
  name=$(jq -r .name "$f")
  dir="$out/$name"
  mkdir -p "$dir"
  local thread
  thread=$(jq -r '[.stream[] | select(.type == "RUN_STARTED") | .threadId | strings][0] // "t-corpus"' "$f")
  {
    echo "default:"
    echo "  run: none"
    echo "  steps:"
    jq -c '.stream[]' "$f" | sed 's/^/    - event: /'
  } >"$dir/scenario.yaml"
  cat >"$dir/ananke.config.yaml" <<EOF
version: "1.0"
target:
  type: agui
  endpoint: "\${ENV.ANANKE_MOCK_URL}"
  agentId: "agui-corpus"
  threadId: $(jq -n --arg t "$thread" '$t')
  timeout_ms: 5000
EOF
  cat >"$dir/fixture.test.yaml" <<EOF
version: "1.0"
name: $name
turns:
  - user: "replay the fixture"
EOF
  "$MOCK" agui --scenario "$dir/scenario.yaml" --port-file "$dir/port" >"$dir/mock.stdout" 2>"$dir/mock.stderr" &
  mock_pid=$!
  for _ in $(seq 1 100); do [ -s "$dir/port" ] && break; sleep 0.05; done
  if [ ! -s "$dir/port" ]; then
    stop_mock
    echo "FAIL $name: the mock did not start: $(head -c 300 "$dir/mock.stderr")"
    fail=$((fail + 1)); return
  fi
  (cd "$dir" && ANANKE_MOCK_URL="http://127.0.0.1:$(cat port)/agent" \
    timeout -k 5 60 "$ANANKE" run . --reporter json:results.json >stdout 2>stderr)
  stop_mock
  if [ ! -s "$dir/results.json" ]; then
    echo "FAIL $name: no JSON report ($(head -c 300 "$dir/stderr"))"
    fail=$((fail + 1)); return
  fi

  # one line of findings per failed comparison, one of notes per relaxation
  local why=() notes=()
  local exp status code msg era=0
  exp=$(jq -c .expect "$f")
  case "$name" in era-*) era=1 ;; esac
  status=$(jq -r '.tests[0].status' "$dir/results.json")
  code=$(jq -r '.tests[0].error.code // ""' "$dir/results.json")
  msg=$(jq -r '.tests[0].error.message // ""' "$dir/results.json")
  local outcome run_error
  outcome=$(jq -r .outcome <<<"$exp")
  run_error=$(jq -r '.runError | if . == true then "" else . end' <<<"$exp")
  if [ "$name" = "$R3_EITHER_OUTCOME" ] && [ "$status" = pass ]; then
    notes+=("R3: completed accepted")
  elif [ "$outcome" = completed ]; then
    if jq -e 'has("runError")' <<<"$exp" >/dev/null; then
      [ "$status" = error ] && [ "$code" = AN_ERUN ] && [[ "$msg" == *"$run_error"* ]] ||
        why+=("runError: want an AN_ERUN error containing '$run_error', got $status $code '$msg'")
    else
      [ "$status" = pass ] || why+=("outcome: want completed, got $status $code '$msg'")
    fi
  else
    local rule=${RULES[$name]:-} needle
    needle=$(jq -r '.errorContains // ""' <<<"$exp")
    if [ -n "$rule" ]; then
      [ "$code" = AN_EPROTO ] && [[ "$msg" == *"[$rule]"* ]] ||
        why+=("outcome: want a protocol error [$rule], got $status $code '$msg'")
    else
      [ "$code" = AN_EPROTO ] && [[ "$msg" == *"$needle"* ]] ||
        why+=("outcome: want a protocol error containing '$needle', got $status $code '$msg'")
    fi
  fi

  # messages: assistant text and tool calls
  if jq -e '.expect | has("messages")' "$f" >/dev/null; then
    if jq -e '[.stream[] | select(.type == "MESSAGES_SNAPSHOT")] | length > 0' "$f" >/dev/null; then
      notes+=("messages not checked (MESSAGES_SNAPSHOT)")
    else
      local want_text got_text
      want_text=$(jq -r '[.expect.messages[] | select(.role == "assistant") | .content | strings] | join("")' "$f")
      got_text=$(jq -r '.tests[0].transcript.turns[0].text // ""' "$dir/results.json")
      [ "$want_text" = "$got_text" ] || why+=("messages: assistant text '$got_text', want '$want_text'")
      if jq -e '[.expect.messages[] | select(has("toolCalls"))] | length > 0' "$f" >/dev/null; then
        local want_calls got_calls
        want_calls=$(jq -c '[.expect.messages[] | .toolCalls[]? | [.id, .function.name, .function.arguments]]' "$f")
        got_calls=$(jq -c '[.tests[0].transcript.tool_calls[] | [.id, .name, .args_text]]' "$dir/results.json")
        [ "$want_calls" = "$got_calls" ] || why+=("messages: tool calls $got_calls, want $want_calls")
      fi
    fi
  fi

  # state
  if jq -e '.expect | has("state")' "$f" >/dev/null; then
    jq -e --argjson w "$(jq -c .expect.state "$f")" "$SUBSET"' sub($w; .tests[0].transcript.turns[0].state)' \
      "$dir/results.json" >/dev/null ||
      why+=("state: $(jq -c '.tests[0].transcript.turns[0].state' "$dir/results.json"), want $(jq -c .expect.state "$f")")
  fi

  # warnings (R1, R2)
  local warnings
  warnings=$(jq -c '[.tests[0].transcript.turns[0].warnings[]?]' "$dir/results.json")
  if [ "$era" = 1 ] && jq -e '.expect.warnings | length > 0' "$f" >/dev/null 2>&1; then
    notes+=("R2: era warnings not checked")
  else
    while IFS= read -r w; do
      [ -n "$w" ] || continue
      if ! jq -e --arg w "$w" 'any(.[]; contains($w))' <<<"$warnings" >/dev/null; then
        if jq -e 'length > 0' <<<"$warnings" >/dev/null; then
          notes+=("R1: warned in its own words, not '$w'")
        else
          why+=("warnings: no warning at all, want one like '$w'")
        fi
      fi
    done < <(jq -r '.expect.warnings[]?' "$f")
  fi
  if jq -e '.expect.noWarnings == true' "$f" >/dev/null; then
    jq -e 'all(.[]; (startswith("protocol warning") or startswith("protocol violation")) | not)' \
      <<<"$warnings" >/dev/null || why+=("noWarnings: $warnings")
  fi

  local skipped
  skipped=$(jq -r '[.expect | keys[] | select(IN("eventTypes","eventTypesAbsent","eventPaths","eventAbsentPaths","messageCount","request","requestAbsentPaths"))] | join(",")' "$f")
  [ -n "$skipped" ] && notes+=("not checked: $skipped")

  local note=""
  [ ${#notes[@]} -gt 0 ] && note=" ($(IFS=';'; echo "${notes[*]}" | sed 's/;/; /g'))"
  if [ ${#why[@]} -eq 0 ]; then
    echo "ok   $name$note"
    pass=$((pass + 1))
  else
    echo "FAIL $name$note"
    printf '    %s\n' "${why[@]}"
    fail=$((fail + 1))
  fi
}

# Two fixtures at a time (each has its own directory, mock and port; the
# work is jq and process start-up, two cores): each one's lines are kept in
# $out/.log/N and its verdict in $out/.log/N.rc, then shown in manifest order.
mkdir -p "$out/.log"
one() { # FIXTURE LOG: run_fixture counting in counters of its own
  local pass=0 fail=0
  run_fixture "$1" >"$2" 2>&1
  echo "$fail" >"$2.rc"
}
n=0 running=0
while IFS= read -r line; do
  case "$line" in '#'* | '') continue ;; esac
  n=$((n + 1))
  if [ ! -f "$CORPUS/streams/$line" ]; then
    echo "FAIL ${line%.json}: listed in MANIFEST.txt but missing" >"$out/.log/$n"
    echo 1 >"$out/.log/$n.rc"; continue
  fi
  one "$CORPUS/streams/$line" "$out/.log/$n" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done <"$CORPUS/streams/MANIFEST.txt"
wait
for i in $(seq 1 "$n"); do
  cat "$out/.log/$i"
  if [ "$(cat "$out/.log/$i.rc" 2>/dev/null)" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
finish
