# shellcheck shell=bash disable=SC2317,SC2154,SC2016 # sourced by run.sh (which sets out, here, url, spawned_pid); functions run through check; ${ENV...} is ananke's, not the shell's
# `ananke comply` (docs/comply.md "Confinement, environment and secrets"):
# its agents' terminals, and with `confine: agent` the agent, run confined
# with a scrubbed environment as `ananke run`'s do, and the secrets it knows
# (an agent's env built from ${ENV...} or named like a secret, every
# ${ENV...} a test file uses, --redact) are redacted in everything it
# writes: the console (-v too), the Markdown, JUnit and JSON reports.
# Each probe is also shown to get through unconfined (`confine: none`,
# `inherit_env: true`), so no check passes for want of trying.
if ! unshare -U -r -m -p -n -f true 2>/dev/null; then
  bad "comply: this machine cannot make namespaces (unshare -Urmpnf): comply's confinement is untested here"
  return 0
fi
cs=$out/comply
csdir=$here/comply
mkdir -p "$cs/home" "$cs/tmp" "$cs/visible"
echo "comply-home-canary-61d2" >"$cs/home/canary.txt"
echo "comply-visible-ro-77a" >"$cs/visible/ro.txt"
CS_HIDDEN=ananke-own-secret-5e7d4c  # in ananke's environment, passed to no one
S_SET=Kq7vW2pXz9LmR4tYb8Nc          # an agent's env from ${ENV.CS_SET} in the settings
S_LIT=Hj3kP9wQx2Vn6Bz8Rm4T          # an agent's env named like a secret, written in the settings
S_JT=Zt5rY8uW1qE3oP6aS9dF           # ${ENV.CS_JT} in a test's prompt
S_RX=rx-Gm7Lk2Jh9Fd4Sa6Qw1Ez        # matched by --redact, in an agent's name and its text
S_AG=Vb4Nm7Xc2Zl9Kj5Hg8Fd           # an AG-UI header from ${ENV.CS_AG}, echoed by the endpoint
cs_secrets=("$S_SET" "$S_LIT" "$S_JT" "$S_RX" "$S_AG")
sleep 300 &
cs_spid=$!
pids+=("$cs_spid")
sed -e "s#@S_AG@#$S_AG#g" "$csdir/agui.in.yaml" >"$cs/agui.yaml"
cs_port=9 cs_url=""
if start comply-agui agui --scenario "$cs/agui.yaml" --requests "$cs/agui-requests.jsonl"; then
  cs_port=${url##*:} cs_url=$url
  cs_listener=$spawned_pid
fi
sed -e "s#@HOME@#$cs/home#g" -e "s#@VISIBLE@#$cs/visible#g" -e "s#@PORT@#$cs_port#g" \
  -e "s#@SPID@#$cs_spid#g" -e "s#@S_SET@#$S_SET#g" -e "s#@S_JT@#$S_JT#g" -e "s#@S_RX@#$S_RX#g" \
  -e "s#@S_LIT@#$S_LIT#g" "$csdir/scenario.in.yaml" >"$cs/scenario.yaml"

# cs_settings FILE [EXTRA-JSON]: two agents, "term-$S_RX" (terminals
# confined: the default) and "self" (confine: agent); EXTRA-JSON is merged
# into both (e.g. {"confine": "none", "inherit_env": true}).
cs_settings() {
  jq -n --arg mock "$MOCK" --arg scn "$cs/scenario.yaml" --arg sh "$csdir/agent.sh" \
    --arg canary "$cs/home/canary.txt" --arg vis "$cs/visible" --arg port "$cs_port" \
    --arg rx "term-$S_RX" --arg lit "$S_LIT" --argjson extra "${2:-{\}}" '
    {agent_servers: {
      ($rx): ({command: $mock, args: ["acp", "--scenario", $scn],
               env: {COMPLY_API_KEY: "${ENV.CS_SET}", MY_SERVICE_TOKEN: $lit, SHORT_TOKEN: "ab1"}} + $extra),
      self: ({command: "/bin/sh", args: [$sh, $mock, $scn, $canary, $vis, $port],
              env: {COMPLY_API_KEY: "${ENV.CS_SET}"}, confine: "agent"} + $extra)}}' >"$1"
}
# cs_run NAME SETTINGS [OPTION...]: ananke comply -v with ananke's HOME and
# TMPDIR in out/comply and the secrets in its environment; every output in
# $cs/NAME.*, the exit code in $cs_rc.
cs_run() {
  local name=$1 settings=$2
  shift 2
  (cd "$cs" && env HOME="$cs/home" TMPDIR="$cs/tmp" CS_HIDDEN=$CS_HIDDEN CS_SET=$S_SET \
    CS_JT=$S_JT CS_NOPATH=/nonexistent-ananke-comply-path timeout -k 5 90 "$ANANKE" comply -v --settings "$settings" \
    --redact 'rx-[A-Za-z0-9]{20}' "$@" -r junit:"$cs/$name.xml" -r json:"$cs/$name.json" \
    -r md:"$cs/$name.report.md" "$csdir/acp" >"$cs/$name.md" 2>"$cs/$name.err")
  cs_rc=$?
}
# cs_seen NAME AGENT: what the report of run NAME quotes for AGENT (the
# updates its terminals' outputs came in, its stderr)
cs_seen() {
  jq -r --arg ag "$2" '.agents[] | select(.name == $ag) | .tests[] |
    ((.unmet // [])[] | (.closest // "" | if type == "string" then . else tojson end), .message // ""), (.stderr_tail // "")' "$cs/$1.json" 2>/dev/null
}
cs_has() {
  local seen
  seen=$(cs_seen "$1" "$2")
  grep -qF -- "$3" <<<"$seen" || { echo "'$3' not seen for $2 in $1:"; head -c 3000 <<<"$seen"; return 1; }
}
# cs_hasnt NAME AGENT STRING: not seen, though the probes ran (a terminal's
# output, or the agent's stderr, is in the report)
cs_hasnt() {
  local seen
  seen=$(cs_seen "$1" "$2")
  grep -qE -- 'rawOutput|agent-home:' <<<"$seen" || { echo "no probe's output seen for $2 in $1"; return 1; }
  ! grep -F -- "$3" <<<"$seen"
}
TA="term-[redacted]" # the terminals agent, as the reports name it
# cs_grep_all PATTERN FILE...: every FILE holds PATTERN
cs_grep_all() { local p=$1 f; shift; for f in "$@"; do cs_grep "$f" "$p" || return 1; done; }
cs_alive() { kill -0 "$1" 2>/dev/null || { echo "process $1 is gone"; return 1; }; }
# cs_exit RC WANT ERRFILE: the exit code was WANT
cs_exit() { [ "$1" = "$2" ] || { echo "exit $1 (want $2)"; tail -n 20 "$3"; return 1; }; }
# cs_grep FILE PATTERN: FILE holds PATTERN (grep -E)
cs_grep() { grep -qE -- "$2" "$1" || { echo "'$2' not in $1:"; head -n 20 "$1"; return 1; }; }
# cs_absent STRING FILE...: no FILE holds STRING (any case)
cs_absent() { local s=$1; shift; ! grep -laiF -- "$s" "$@"; }
# cs_pieces_absent SECRET FILE...: no six bytes of SECRET in a row (any case)
# in any FILE, nor in any file's name
cs_pieces_absent() {
  local s=$1 i w=$cs/windows.txt hits; shift
  : >"$w"
  for ((i = 0; i + 6 <= ${#s}; i++)); do printf '%s\n' "${s:i:6}" >>"$w"; done
  hits=$(grep -laiF -f "$w" -- "$@" 2>/dev/null; printf '%s\n' "$@" | grep -aiF -f "$w")
  [ -z "$hits" ] && return 0
  echo "a piece of '$s' found in:"; echo "$hits" | head -n 5
  for i in $hits; do [ -f "$i" ] && grep -aoiF -f "$w" "$i" | head -n 3; done
  return 1
}

# ---- confined by default (the settings say nothing of it)
cs_settings "$cs/settings-default.json"
cs_run default "$cs/settings-default.json"
check "comply: the confined run ran (exit 0)" cs_exit "$cs_rc" 0 "$cs/default.err"
check "comply: the confined run reported both agents' tests" \
  jq_true "$cs/default.json" '[.agents[].tests[].id] | length == 2' 
check "comply: a terminal cannot read ananke's \$HOME (hidden)" cs_hasnt default "$TA" TERM-READ-HOME
check "comply: a terminal cannot write outside its sandbox" cs_hasnt default "$TA" TERM-WROTE-OUTSIDE
check "comply: a terminal writes inside its sandbox" cs_has default "$TA" 'inside\n'
check "comply: a terminal has no network" cs_has default "$TA" TERM-NO-NETWORK
check "comply: a terminal cannot signal a process outside" cs_hasnt default "$TA" TERM-SIGNALLED
check "comply: ananke's secret is not in a terminal's environment" cs_hasnt default "$TA" "$CS_HIDDEN"
check "comply: a terminal's HOME is its sandbox" cs_has default "$TA" "HOME=$cs/tmp/"
check "comply: a terminal's environment holds the agent's env (redacted in reports)" \
  cs_has default "$TA" "COMPLY_API_KEY=[redacted]"
for m in AGENT-READ-HOME AGENT-WROTE-OUTSIDE AGENT-CONNECTED AGENT-HAS-HIDDEN; do
  check "comply: the confined agent (confine: agent) does not get through: no $m" cs_hasnt default self "$m"
done
check "comply: the confined agent ran its probe (its HOME is its sandbox)" cs_has default self "agent-home: $cs/tmp/"
check "comply: the process outside is still alive" cs_alive "$cs_spid"
check "comply: a secret under 4 bytes is said once, the agent's name in it redacted" \
  test "$(grep -c "^ananke: warning: the value of env SHORT_TOKEN of agent term-\[redacted\] is shorter than 4 bytes" "$cs/default.err")" = 1
check "comply: nothing outside the sandbox changed" test "$(cat "$cs/visible/ro.txt")" = comply-visible-ro-77a
check "comply: no output holds the \$HOME canary" cs_absent comply-home-canary-61d2 "$cs"/default.*
check "comply: no output holds ananke's secret" cs_absent "$CS_HIDDEN" "$cs"/default.*

# ---- --network gives the network back, still confined
cs_run net "$cs/settings-default.json" --network
check "comply: with --network a terminal reaches 127.0.0.1" cs_has net "$TA" TERM-CONNECTED
check "comply: with --network a terminal is still confined" cs_hasnt net "$TA" TERM-READ-HOME

# ---- the same, unconfined (confine: none, inherit_env: true): every probe gets through
cs_settings "$cs/settings-none.json" '{"confine": "none", "inherit_env": true}'
cs_run none "$cs/settings-none.json"
for m in TERM-READ-HOME TERM-WROTE-OUTSIDE TERM-SIGNALLED "$CS_HIDDEN"; do
  check "comply: unconfined (confine: none, inherit_env: true), a terminal gets through: $m" cs_has none "$TA" "$m"
done
for m in AGENT-READ-HOME AGENT-WROTE-OUTSIDE AGENT-CONNECTED AGENT-HAS-HIDDEN; do
  check "comply: unconfined, the same agent gets through: $m" cs_has none self "$m"
done
echo "comply-visible-ro-77a" >"$cs/visible/ro.txt"
kill "$cs_spid" 2>/dev/null; wait "$cs_spid" 2>/dev/null
sleep 300 &
cs_spid=$!
pids+=("$cs_spid")
sed -i "s#kill -TERM [0-9]*#kill -TERM $cs_spid#" "$cs/scenario.yaml"

# ---- the flags: --confine none --inherit-env for an --agent NAME=COMMAND
(cd "$cs" && env HOME="$cs/home" TMPDIR="$cs/tmp" CS_HIDDEN=$CS_HIDDEN CS_JT=$S_JT \
  timeout -k 5 90 "$ANANKE" comply --confine none --inherit-env \
  --agent flags="$MOCK acp --scenario $cs/scenario.yaml" -r json:"$cs/flags.json" "$csdir/acp" \
  >"$cs/flags.md" 2>"$cs/flags.err")
check "comply: --confine none --inherit-env: a terminal reads \$HOME" cs_has flags flags TERM-READ-HOME
check "comply: --confine none --inherit-env: a terminal sees ananke's secret" cs_has flags flags "$CS_HIDDEN"
(cd "$cs" && env HOME="$cs/home" TMPDIR="$cs/tmp" CS_HIDDEN=$CS_HIDDEN CS_JT=$S_JT \
  timeout -k 5 90 "$ANANKE" comply --agent flags="$MOCK acp --scenario $cs/scenario.yaml" \
  -r json:"$cs/flags-default.json" "$csdir/acp" >"$cs/flags-default.md" 2>"$cs/flags-default.err")
check "comply: an --agent NAME=COMMAND's terminals are confined by default" cs_hasnt flags-default flags TERM-READ-HOME
check "comply: an --agent NAME=COMMAND's terminals get a scrubbed environment" cs_hasnt flags-default flags "$CS_HIDDEN"
check "comply: an --agent NAME=COMMAND's terminals ran" cs_has flags-default flags TERM-NO-NETWORK

# ---- bad settings and flags: exit 2, naming the key
cs_settings "$cs/settings-bad.json" '{"confine": "agnet"}'
CS_SET=$S_SET "$ANANKE" comply --settings "$cs/settings-bad.json" "$csdir/acp" >/dev/null 2>"$cs/bad.err"
check "comply: an unknown confine in the settings is exit 2" cs_exit $? 2 "$cs/bad.err"
check "comply: ... naming the key" cs_grep "$cs/bad.err" 'agent_servers\..*\.confine must be one of: terminals, agent, required, none' 
cs_settings "$cs/settings-bad.json" '{"confine_paths": ["relative/dir"]}'
CS_SET=$S_SET "$ANANKE" comply --settings "$cs/settings-bad.json" "$csdir/acp" >/dev/null 2>"$cs/bad.err"
check "comply: a relative confine_paths entry is exit 2" cs_exit $? 2 "$cs/bad.err"
check "comply: ... naming it" cs_grep "$cs/bad.err" 'confine_paths\[0\] must be an absolute path' 
"$ANANKE" comply --confine sometimes --agent m="$MOCK acp" "$csdir/acp" >/dev/null 2>"$cs/bad.err"
check "comply: --confine with an unknown mode is exit 2" cs_exit $? 2 "$cs/bad.err"
check "comply: ... saying the modes" cs_grep "$cs/bad.err" 'confine takes terminals, agent, required or none' 
cs_settings "$cs/settings-missing.json" '{"confine_paths": ["${ENV.CS_NOPATH}"]}'
cs_run missing "$cs/settings-missing.json"
check "comply: a missing confine_paths entry (from \${ENV...}) fails the tests, naming it" \
  jq_true "$cs/missing.json" '[.agents[].tests[] | .status == "fail" and (.unmet[0].message | contains("/nonexistent-ananke-comply-path"))] == [true, true]' 

# ---- where namespaces are missing (a user namespace whose
# max_user_namespaces is 0): one warning, terminals as before, the
# environment still scrubbed; --confine required fails every test instead
if unshare -U -r true 2>/dev/null; then
  cs_nons() { # NAME OPTION...: cs_run without namespaces
    local name=$1; shift
    (cd "$cs" && env HOME="$cs/home" TMPDIR="$cs/tmp" CS_HIDDEN=$CS_HIDDEN CS_SET=$S_SET CS_JT=$S_JT \
      unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' _ \
      timeout -k 5 90 "$ANANKE" comply --agent "two=$MOCK acp --scenario $cs/scenario.yaml" "$@" \
      -r json:"$cs/$name.json" "$csdir/acp" "$cs/second" >"$cs/$name.md" 2>"$cs/$name.err")
    cs_rc=$?
  }
  mkdir -p "$cs/second"
  sed -e 's/"title": "[^"]*"/"title": "a second test"/' "$csdir/acp/probe.jsont" >"$cs/second/probe2.jsont"
  cs_nons fallback
  check "comply: without namespaces comply still runs (exit 0)" cs_exit "$cs_rc" 0 "$cs/fallback.err"
  check "comply: without namespaces ananke says so once (one warning line for the probe and two tests)" \
    test "$(grep -c '^ananke: warning: cannot confine: unshare' "$cs/fallback.err")" = 1
  check "comply: without namespaces terminals run as before (they read \$HOME)" cs_has fallback two TERM-READ-HOME
  check "comply: without namespaces the environment is still scrubbed" cs_hasnt fallback two "$CS_HIDDEN"
  cs_nons required --confine required
  check "comply: --confine required without namespaces: every test FAILs, saying why" \
    jq_true "$cs/required.json" '[.agents[].tests[] | .status == "fail" and (.unmet[0].message | contains("confine is '"'"'required'"'"', but cannot confine"))] == [true, true]'
  check "comply: --confine required started nothing (each test's one failure is the startup)" \
    jq_true "$cs/required.json" '[.agents[].tests[].unmet[].kind] == ["startup", "startup"]' 
  echo "comply-visible-ro-77a" >"$cs/visible/ro.txt"
else
  bad "comply: 'unshare -U -r' does not work here: the fallback and --confine required are untested"
fi

# ---- secrets: in no output, whole or in a piece of 6 bytes
if [ -n "$cs_url" ]; then
  mkdir -p "$cs/agui"
  (cd "$cs" && env HOME="$cs/home" TMPDIR="$cs/tmp" CS_AG=$S_AG timeout -k 5 60 "$ANANKE" comply -v \
    --protocol agui --agent "ep=$cs_url/agent" -r junit:"$cs/agui.xml" -r json:"$cs/agui.json" \
    -r md:"$cs/agui.report.md" "$csdir/agui" >"$cs/agui.md" 2>"$cs/agui.err")
  check "comply: the AG-UI endpoint was sent the credential (the shape is in play)" \
    grep -qF "Bearer $S_AG" "$cs/agui-requests.jsonl"
  check "comply: the AG-UI test failed" jq_true "$cs/agui.json" '.agents[0].tests[0].status == "fail"'
  check "comply: the AG-UI report and -v show the echoed credential [redacted]" \
    cs_grep_all '\[redacted\]' "$cs/agui.json" "$cs/agui.err" "$cs/agui.report.md"
else
  bad "comply: the AG-UI endpoint did not start: the AG-UI header secret is untested"
fi
check "comply: every output of the confined run shows [redacted] (console, -v, Markdown, JUnit, JSON)" \
  cs_grep_all '\[redacted\]' "$cs/default.md" "$cs/default.err" "$cs/default.report.md" "$cs/default.xml" "$cs/default.json"
check "comply: the agent's stderr quoted in the report is redacted" cs_has default self "agent-key: [redacted]"
cs_outputs=("$cs"/default.* "$cs"/net.* "$cs"/none.* "$cs"/missing.* "$cs"/agui.md "$cs"/agui.err "$cs"/agui.xml "$cs"/agui.json "$cs"/agui.report.md)
for s in "${cs_secrets[@]}"; do
  check "comply: no piece (6 bytes or more) of '$s' in any output of comply" cs_pieces_absent "$s" "${cs_outputs[@]}"
done
stop_pids "$cs_spid" "${cs_listener:-}"
