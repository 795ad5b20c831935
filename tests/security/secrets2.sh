# shellcheck shell=bash disable=SC2154,SC2317 # sourced by run.sh's secrets part
# Secrets cut every way, searched piece by piece (docs/security.md "Secrets:
# what is redacted, and where"). run.sh has run everything and set
# $secrets_all, $outputs, $sec, $a, $b.

# pieces_absent SECRET PATH...: no six bytes of SECRET in a row (any case)
# in any file under PATH, nor in any file's name.
pieces_absent() {
  local s=$1 i hits names; shift
  local w=$sec/windows.txt
  : >"$w"
  for ((i = 0; i + 6 <= ${#s}; i++)); do printf '%s\n' "${s:i:6}" >>"$w"; done
  hits=$(grep -rlaiF -f "$w" -- "$@" 2>/dev/null)
  names=$(find "$@" | grep -aiF -f "$w")
  [ -z "$hits$names" ] && return 0
  [ -n "$hits" ] && { echo "a piece of '$s' found in:"; echo "${hits//"$out/"/}" | head -n 5; }
  [ -n "$names" ] && { echo "a piece of '$s' names:"; echo "${names//"$out/"/}" | head -n 5; }
  return 1
}
for s in "${secrets_all[@]}"; do
  check "secrets: no piece (6 bytes or more) of '$s' in any output or file name" \
    pieces_absent "$s" "${outputs[@]}"
done

# each shape was really in play: what it left is [redacted], not nothing
res=$sec/rec-a/results.json
test_of() { jq -c --arg n "$1" '.tests[] | select(.name == $n)' "$res"; }
shape() { # DESCRIPTION TEST-NAME JQ-EXPR
  local got
  got=$(test_of "$2" | jq -e "$3" 2>&1) && [ "$got" = true ] && return 0
  echo "$2: not $3"; test_of "$2" | head -c 600; echo
  return 1
}
check "secrets: interleaved messages read whole, each secret one [redacted]" \
  shape x "the agent streams secrets in pieces" \
  '.transcript.turns[0].text == "il [redacted]. the other message goes on. cc [redacted] done"'
check "secrets: interleaved tool arguments redacted in the call" \
  shape x "the agent streams secrets in pieces" \
  '[.transcript.tool_calls[].args] == [{"key": "[redacted]"}, {"q": "other"}]'
frames=$sec/rec-a/tests/the_agent_streams_secrets_in_pieces/frames.jsonl
check "secrets: the streamed frames were recorded (CONTENT, CHUNK, alternating ARGS)" \
  test "$(grep -c 'TEXT_MESSAGE_CHUNK' "$frames") $(grep -c 'TOOL_CALL_ARGS' "$frames") $(grep -c 'redacted' "$frames")" \
  = "1 4 7"
check "secrets: a protocol error that quotes one event redacts the piece of a secret in it" \
  shape x "the agent continues an open message with a chunk" \
  '.status == "error" and (.error.message | test("already open .*\\[redacted\\] done"))'
check "secrets: a hook that fails: its error quotes stdout, redacted" \
  shape x "a hook prints its secret and fails" \
  '.status == "error" and (.error.message | test("exited with status 3; stdout: .*\\[redacted\\]"))'
check "secrets: a hook that hangs: its error quotes what it printed, redacted" \
  shape x "a hook prints its secret and hangs" \
  '.status == "error" and (.error.message | test("timed out after 500 ms; stdout: .*\\[redacted\\]"))'
check "secrets: an HTTP error body cut at 300 bytes leaves no start of the secret" \
  shape x "the agent's error body holds a secret" \
  '.status == "error" and (.error.message | test("HTTP 500: \\{\"error\": \"p+\\[redacted\\]\\.\\.\\.$"))'
check "secrets: a pattern that hits PCRE2's match limit redacts the whole text" \
  shape x "the agent says what a pattern gives up on" '.transcript.turns[0].text == "[redacted]"'
check "secrets: ... and says so, naming the pattern" \
  grep -q "warning: --redact '(x+x+)+y': PCRE2 gave up on [0-9]* texts (its match limit): they were redacted whole" \
  "$a/stderr"
check "secrets: a --redact match in a test name: recorded as redacted, in a directory named so" \
  jq_true "$sec/rec-a/run.json" \
  '[.tests[] | select(.name == "login as [redacted]") | .slug] == ["login_as__redacted_"]'
check "secrets: ... whose frames are there for compare" \
  jq_true "$sec/pack-plain/compare-report.json" \
  '.items[] | select(.case_id == "login as [redacted]") | .data_availability.new.status == "present"
     and (.artifacts | has("new_frames_href"))'
check "secrets: replay pairs the redacted name with its test" \
  jq_true "$sec/replay/results.json" \
  '[.tests[] | select(.name == "login as [redacted]") | .status] == ["pass"]'
# a recording that lost a case's frames: compare says so, not "present"
rm -rf "$sec/rec-c" "$sec/pack-c"
cp -r "$sec/rec-b" "$sec/rec-c"
rm "$sec/rec-c/tests/login_as__redacted_/frames.jsonl"
"$ANANKE" compare "$sec/rec-a" "$sec/rec-c" -o "$sec/pack-c" >/dev/null 2>&1
check "secrets: compare calls a case whose frames.jsonl is missing broken" \
  jq_true "$sec/pack-c/compare-report.json" \
  '.items[] | select(.case_id == "login as [redacted]") | .data_availability.new
     | .status == "broken" and .reason_code == "missing_file"
       and .details.file == "tests/login_as__redacted_/frames.jsonl"'
# what the command prints before any result: a dry run's list of tests
# (a dry run refuses an unset ${ENV.X}: the config's are set, to no secret)
(cd "$here/secrets" && ANANKE_MOCK_URL=http://127.0.0.1:9/agent SEC_ENV_TOKEN=unused \
  SEC_ECHO_KEY=unused "$ANANKE" run . --dry-run "${red_args[@]}" >"$sec/dry-run.stdout" 2>&1)
check "secrets: a dry run lists the test named with a --redact match redacted" \
  grep -q '^  login as \[redacted\]  (name.test.yaml' "$sec/dry-run.stdout"
check "secrets: no piece of it in the dry run's output" pieces_absent "$S_RN" "$sec/dry-run.stdout"
