# shellcheck shell=bash
# Sourced by tests/security/run.sh (its helpers: check, jq_true, absent,
# $out, $here, $ANANKE): the ACP sandbox against an agent that plants links,
# FIFOs, a socket and a hard link with its terminal, then tries every shape
# of path out (docs/security.md, "The ACP sandbox").
acp2=$out/acp-escapes
out2=$acp2/outside
mkdir -p "$out2" "$acp2/tmp"
canary2="canary-3f9a-never-read"
echo "$canary2" >"$out2/canary.txt"
before2=$(sha256sum "$out2/canary.txt")
long=$(printf 'a/%.0s' $(seq 1 3000))x
sed -e "s#@OUTSIDE@#$out2#g" -e "s#@LONG@#$long#" "$here/acp-escapes/scenario.in.yaml" \
  >"$acp2/scenario.yaml"
t0=$(date +%s%N)
(cd "$here/acp-escapes" && ACP_SCENARIO="$acp2/scenario.yaml" TMPDIR="$acp2/tmp" \
  timeout -k 5 60 "$ANANKE" run . -r json:"$acp2/results.json" -r junit:"$acp2/junit.xml" \
  >"$acp2/stdout" 2>"$acp2/stderr")
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "acp-escapes: the run ran (exit 0)" test "$rc" = 0 -a -s "$acp2/results.json"
# one turn's timeout (8 s) plus a margin: nothing blocked, nothing timed out
check "acp-escapes: the run ends within 10 s, no turn timed out (took ${ms} ms)" \
  test "$ms" -lt 10000
check "acp-escapes: every link, the FIFO, the socket and the hard link were planted" \
  jq_true "$acp2/results.json" '[.tests[0].transcript.tool_calls[] | select(.name == "terminal/wait_for_exit") | .result.exitCode] | .[0:15] == [range(15) | 0]'
# refused2 METHOD PATH-END REASON CODE: ananke answered that request with
# error CODE, data.reason REASON, and recorded a violation
refused2() {
  # shellcheck disable=SC2016 # $m, $p, $r are jq's
  jq_true "$acp2/results.json" '
    [.tests[0].transcript.tool_calls[] | select(.name == $m)
     | select(((.args.path // .args.cwd) // "") | endswith($p))]
    | length == 1 and .[0].result.error.code == ($c | tonumber)
      and (.[0].result.error.data.reason // "") == $r' \
    --arg m "$1" --arg p "$2" --arg r "$3" --arg c "$4"
}
# OUTSIDE/canary.txt<NUL>/../ok.txt: a NUL an agent sends is kept as the text
# \u0000 (core/json.c), so the path cannot be cut short; it names a place
# under OUTSIDE and is refused as such (acp_path.c's nul_byte answer is for
# paths that reach it with a NUL: tests/unit/test_acp_path.c)
for c in \
  "fs/write_text_file|/nope/../dirlink/x.txt|outside_sandbox" \
  "fs/read_text_file|/nope/../dirlink/canary.txt|outside_sandbox" \
  "fs/read_text_file|/chain1/canary.txt|outside_sandbox" \
  "fs/write_text_file|/chain1/z.txt|outside_sandbox" \
  "fs/read_text_file|/procroot/etc/passwd|outside_sandbox" \
  "fs/read_text_file|/procrel/etc/passwd|outside_sandbox" \
  "fs/read_text_file|/loop1|unresolvable" \
  "fs/write_text_file|/dangle_abs|outside_sandbox" \
  "fs/write_text_file|/dangle_rel|outside_sandbox" \
  "fs/read_text_file|/dirlink/|outside_sandbox" \
  "fs/read_text_file|/dir/..//./dirlink//canary.txt|outside_sandbox" \
  "fs/read_text_file|/devlink|outside_sandbox" \
  "fs/read_text_file|/a/a/a/x|unresolvable" \
  "fs/read_text_file|/ok.txt|outside_sandbox" \
  "fs/write_text_file|/fifo|not_regular_file" \
  "fs/read_text_file|/fifo|not_regular_file" \
  "fs/write_text_file|/sock|not_regular_file" \
  "fs/read_text_file|/sock|not_regular_file" \
  "fs/read_text_file|/hardlink|hard_link" \
  "fs/write_text_file|/hardlink|hard_link" \
  "terminal/create|/nope/../dirlink|outside_sandbox" \
  "terminal/create|/chain1|outside_sandbox" \
  "terminal/create|/dirlink/|outside_sandbox"; do
  IFS='|' read -r m p r <<<"$c"
  check "acp-escapes: $m '$p' refused ($r), a violation" refused2 "$m" "$p" "$r" -32602
done
# '..' after a file component is what the kernel says: not found (no escape)
check "acp-escapes: fs/read_text_file 'afile/x/../../dirlink/canary.txt': not found" \
  refused2 fs/read_text_file /afile/x/../../dirlink/canary.txt "" -32002
check "acp-escapes: fs/write_text_file 'afile/x/../../dirlink/y.txt': not found" \
  refused2 fs/write_text_file /afile/x/../../dirlink/y.txt "" -32002
check "acp-escapes: a directory is refused, not a violation" \
  refused2 fs/read_text_file /dir directory -32602
check "acp-escapes: 23 violations, each a warning of its turn" \
  jq_true "$acp2/results.json" '[.tests[0].transcript.turns[].warnings[]? | select(startswith("violation: "))] | length == 23'
check "acp-escapes: the canary is unchanged, nothing was made outside" \
  test "$(sha256sum "$out2/canary.txt")" = "$before2" -a "$(ls -A "$out2")" = canary.txt
for s in "$canary2" root:x:0:0; do
  check "acp-escapes: no output holds '$s'" \
    absent "$s" "$acp2/stdout" "$acp2/stderr" "$acp2/results.json" "$acp2/junit.xml"
done
# shellcheck disable=SC2016
check "acp-escapes: permissionPolicy read: no kind 'Delete already-processed files' and kind other 'Overwrite spreadsheet' denied; kind read and no kind 'Read the notes' granted" \
  jq_true "$acp2/results.json" '[.tests[0].transcript.tool_calls[] | select(.name == "session/request_permission") | .result.outcome.optionId] == ["reject", "reject", "allow", "allow"]'
check "acp-escapes: inside, writing, reading and a terminal cwd with '..' work" \
  jq_true "$acp2/results.json" '[.tests[0].transcript.tool_calls[] | select(.name == "fs/read_text_file" and (.args.path | test("/(ok/deeper/inside.txt|dir/made-inside)$"))) | .result.content] == ["fine", ""]'
