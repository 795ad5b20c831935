# shellcheck shell=bash disable=SC2317 # sourced by run.sh; functions run through check
# Confinement (docs/security.md "Confinement"): ACP terminals, and with
# `confine: agent` the agent itself, cannot read what ananke hides ($HOME,
# $TMPDIR and the sandboxes' neighbours), cannot write outside the sandbox,
# have no network, cannot see or signal a process outside, leave nothing
# running, and see none of ananke's environment but what `env:` passes.
# Each claim is also shown to fail unconfined (`confine: none`,
# `inherit_env: true`), so no check passes for want of trying. Then the
# fallback where namespaces are missing (a user namespace whose
# max_user_namespaces is 0): one warning line, or, with `confine:
# required`, an ERROR for each test.
if ! unshare -U -r -m -p -n -f true 2>/dev/null; then
  bad "confine: this machine cannot make namespaces (unshare -Urmpnf): confinement is untested here"
  return 0
fi
cf=$out/confine
cfdir=$here/confine
mkdir -p "$cf/home/shared" "$cf/tmp" "$cf/visible"
echo "home-canary-0b7f-do-not-read" >"$cf/home/canary.txt"
echo "shared-ro-9e21" >"$cf/home/shared/shared.txt"
echo "sibling-canary-3c55" >"$cf/tmp/sibling.txt"
echo "visible-ro-5a1" >"$cf/visible/ro.txt"
cf_before=$(cd "$cf" && sha256sum home/canary.txt visible/ro.txt)
CF_SECRET=env-secret-of-ananke-7d3e
sleep 300 &
cf_spid=$!
pids+=("$cf_spid")
cf_port=""
if start confine-listener agui --scenario "$here/loopback/agui.yaml"; then
  cf_port=${url##*:}
  cf_listener=$spawned_pid
fi
sed -e "s#@HOME@#$cf/home#g" -e "s#@TMP@#$cf/tmp#g" -e "s#@VISIBLE@#$cf/visible#g" \
  -e "s#@PORT@#${cf_port:-9}#g" -e "s#@SPID@#$cf_spid#g" \
  "$cfdir/scenario.in.yaml" >"$cf/scenario.yaml"

# cf_run NAME CONFIG TEST [ENV=VALUE...]: ananke run -c CONFIG TEST with
# ananke's HOME and TMPDIR in out/confine and a secret in its environment;
# results in $cf/NAME.json, output in $cf/NAME.out, exit code in $cf_rc.
cf_run() {
  local name=$1 config=$2 test=$3
  shift 3
  (cd "$cfdir" && env HOME="$cf/home" TMPDIR="$cf/tmp" CF_SECRET=$CF_SECRET \
    CF_PASSED=passed-by-env-4410 CF_DIR="$cfdir" CF_REPO="$(cd "$here/../.." && pwd)" CF_SCENARIO="$cf/scenario.yaml" \
    CF_HOME="$cf/home" CF_VISIBLE="$cf/visible" CF_PORT="${cf_port:-9}" CF_SPID="$cf_spid" \
    "$@" timeout -k 5 60 "$ANANKE" run -c "$config" "$test" -r json:"$cf/$name.json" \
    >"$cf/$name.out" 2>&1)
  cf_rc=$?
}
# cf_out NAME: every terminal's output and every file the agent read, in run NAME
cf_out() {
  jq -r '.tests[].transcript.tool_calls[] | select(.name == "terminal/output" or .name == "fs/read_text_file") | (.result.output // .result.content // "")' "$cf/$1.json" 2>/dev/null
}
# has NAME STRING / hasnt NAME STRING: in what run NAME's terminals and agent saw
has() { cf_out "$1" | grep -qF -- "$2" || { echo "'$2' not seen in $1:"; cf_out "$1" | head -n 40; return 1; }; }
hasnt() { ! cf_out "$1" | grep -F -- "$2"; }
# none_running PATTERN: no process runs whose command line matches
none_running() { ! pgrep -af -- "$1"; }
alive() { kill -0 "$1" 2>/dev/null || { echo "process $1 is gone"; return 1; }; }

# ---- terminals, confined by default
cf_run terminals terminals.config.yaml terminals.test.yaml
check "confine: the terminals run ran (exit 0)" test "$cf_rc" = 0 -a -s "$cf/terminals.json"
check "confine: a terminal cannot read ananke's \$HOME (hidden)" hasnt terminals TERM-READ-HOME
check "confine: a terminal cannot read next to its sandbox (\$TMPDIR hidden)" hasnt terminals TERM-READ-SIBLING
check "confine: a confine_paths entry under \$HOME is readable" has terminals shared-ro-9e21
check "confine: the rest of the file system is readable" has terminals visible-ro-5a1
check "confine: a terminal cannot write outside its sandbox" has terminals "Read-only file system"
for m in TERM-READ-SIBLING-REL TERM-WROTE-UP-REL TERM-WROTE-OUTSIDE TERM-CREATED-OUTSIDE TERM-MADE-DIR TERM-CONNECTED TERM-SEES-PID TERM-SIGNALLED TERM-UNMOUNTED; do
  check "confine: a terminal does not get through: no $m" hasnt terminals "$m"
done
check "confine: a terminal writes inside its sandbox" has terminals "inside"
check "confine: a terminal has no network (a port ananke-mock listens on is unreachable)" \
  has terminals TERM-NO-NETWORK
check "confine: a terminal sees only its own processes" \
  bash -c 'n=$(jq -r ".tests[0].transcript.tool_calls[] | select(.name == \"terminal/output\") | .result.output" "$1" | sed -n "s/^processes: //p"); [ -n "$n" ] && [ "$n" -le 8 ] || { echo "processes: $n"; exit 1; }' _ "$cf/terminals.json"
check "confine: the process outside is still alive" alive "$cf_spid"
check "confine: a terminal's children, even setsid ones, died with it" none_running "sleep 12[78][.]25"
check "confine: ananke's secret is not in a terminal's environment" hasnt terminals "$CF_SECRET"
# a value env: takes from ${ENV...} is a secret to ananke: the reports show the
# variable with its value redacted, which only the value itself becomes
check "confine: a terminal's environment holds what env: passes (redacted in reports)" has terminals "CF_PASSED=[redacted]"
check "confine: a terminal's HOME is its sandbox" has terminals "HOME=$cf/tmp/ananke-sandbox-"
check "confine: nothing outside the sandbox changed" \
  test "$(cd "$cf" && sha256sum home/canary.txt visible/ro.txt)" = "$cf_before" -a ! -e "$cf/visible/new.txt" -a ! -e "$cf/tmp/made"
check "confine: no output holds the \$HOME canary" \
  absent home-canary-0b7f "$cf/terminals.json" "$cf/terminals.out"
check "confine: no output holds ananke's secret" absent "$CF_SECRET" "$cf/terminals.json" "$cf/terminals.out"

# ---- the same terminals unconfined: every probe gets through (the checks can fail)
sed -e 's/^  confine_paths:.*/  confine: none\n  inherit_env: true/' "$cfdir/terminals.config.yaml" >"$cf/none.config.yaml"
cf_run none "$cf/none.config.yaml" terminals.test.yaml
for m in TERM-READ-HOME TERM-READ-SIBLING TERM-READ-SIBLING-REL TERM-WROTE-UP-REL TERM-WROTE-OUTSIDE TERM-SEES-PID TERM-UNMOUNTED "$CF_SECRET"; do
  check "confine: unconfined (confine: none, inherit_env: true), a terminal gets through: $m" has none "$m"
done
check "confine: unconfined, a setsid child outlives its terminal" pgrep -f "sleep 128[.]25"
pkill -f "sleep 12[78][.]25" 2>/dev/null
kill "$cf_spid" 2>/dev/null; wait "$cf_spid" 2>/dev/null
sleep 300 &
cf_spid=$!
pids+=("$cf_spid")
echo "visible-ro-5a1" >"$cf/visible/ro.txt"
rm -f "$cf/visible/new.txt"; rmdir "$cf/tmp/made" 2>/dev/null
cf_before=$(cd "$cf" && sha256sum home/canary.txt visible/ro.txt)
sed -i "s#kill -TERM [0-9]*#kill -TERM $cf_spid#; s#/proc/[0-9]* #/proc/$cf_spid #" "$cf/scenario.yaml"

# ---- network: true keeps the host's network
sed -e 's/^  confine_paths:.*/  network: true/' "$cfdir/terminals.config.yaml" >"$cf/net.config.yaml"
cf_run net "$cf/net.config.yaml" terminals.test.yaml
check "confine: with network: true a terminal reaches 127.0.0.1" has net TERM-CONNECTED
check "confine: with network: true a terminal is still confined" hasnt net TERM-READ-HOME

# ---- a confine_paths entry holding hidden directories ($HOME, $TMPDIR):
# they stay hidden inside it
sed -e "s#^  confine_paths:.*#  confine_paths: [\"$cf\"]#" "$cfdir/terminals.config.yaml" >"$cf/above.config.yaml"
cf_run above "$cf/above.config.yaml" terminals.test.yaml
check "confine: inside a confine_paths entry, \$HOME and the sandboxes' directory stay hidden" \
  bash -c '! grep -qE "TERM-READ-(HOME|SIBLING)" <<<"$1" && grep -q visible-ro-5a1 <<<"$1" || { echo "$1"; exit 1; }' _ "$(cf_out above)"

# ---- confine: agent: the agent process itself
cf_run agent agent.config.yaml agent.test.yaml
check "confine: the confine: agent run ran (exit 0)" test "$cf_rc" = 0 -a -s "$cf/agent.json"
check "confine: the agent ran its probe" has agent "agent-env:"
for m in AGENT-READ-HOME AGENT-WROTE-OUTSIDE AGENT-CONNECTED AGENT-SIGNALLED "$CF_SECRET"; do
  check "confine: the confined agent does not get through: no $m" hasnt agent "$m"
done
check "confine: the agent's environment holds what env: passes (redacted in reports)" has agent "CF_PORT=[redacted]"
check "confine: the agent's children, even setsid ones, died with it" none_running "sleep 1(29|30)[.]25"
check "confine: the process outside is still alive (agent)" alive "$cf_spid"
check "confine: nothing outside changed (agent)" \
  test "$(cd "$cf" && sha256sum home/canary.txt visible/ro.txt)" = "$cf_before"
# the same agent unconfined gets through
sed -e 's/^  confine: agent/  confine: terminals/' "$cfdir/agent.config.yaml" >"$cf/agent-free.config.yaml"
cf_run agent-free "$cf/agent-free.config.yaml" agent.test.yaml
for m in AGENT-READ-HOME AGENT-WROTE-OUTSIDE AGENT-CONNECTED; do
  check "confine: unconfined (confine: terminals), the same agent gets through: $m" has agent-free "$m"
done
pkill -f "sleep 1(29|30)[.]25" 2>/dev/null
echo "visible-ro-5a1" >"$cf/visible/ro.txt"

# ---- a confined agent whose program is under a hidden directory: an
# ERROR that says why and what to do
mkdir -p "$cf/home/bin"
printf '#!/bin/sh\nexec "$MOCK" acp\n' >"$cf/home/bin/agent"
chmod +x "$cf/home/bin/agent"
sed -e 's#^  command: .*#  command: "${ENV.CF_HOME}/bin/agent"#' -e '/^  args:/d' \
  "$cfdir/agent.config.yaml" >"$cf/hidden-agent.config.yaml"
cf_run hidden-agent "$cf/hidden-agent.config.yaml" agent.test.yaml
check "confine: a confined agent under a hidden directory is an ERROR pointing at confine_paths" \
  jq_true "$cf/hidden-agent.json" '.tests[0].status == "error" and (.tests[0].error.message | test("^cannot run .*/bin/agent.: No such file or directory \\(the agent is confined: .*list what it needs in confine_paths\\)$"))'

# ---- a confine_paths entry that does not exist: the test is an ERROR
sed -e 's#^  confine_paths:.*#  confine_paths: ["/nonexistent-ananke-confine-path"]#' \
  "$cfdir/terminals.config.yaml" >"$cf/missing.config.yaml"
cf_run missing "$cf/missing.config.yaml" terminals.test.yaml
check "confine: a missing confine_paths entry makes the test an ERROR naming it" \
  bash -c '[ "$1" = 1 ] && jq -e ".tests[0].status == \"error\" and (.tests[0].error.message | contains(\"confine path '"'"'/nonexistent-ananke-confine-path'"'"'\"))" "$2" >/dev/null || { echo "exit $1"; cat "$3"; exit 1; }' _ "$cf_rc" "$cf/missing.json" "$cf/missing.out"

# ---- where namespaces are missing: one warning and today's behaviour, or
# an ERROR with confine: required. A user namespace whose
# max_user_namespaces is 0 lets nothing inside create another.
if unshare -U -r true 2>/dev/null; then
  cat "$cfdir/terminals.test.yaml" >"$cf/second.test.yaml"
  sed -i 's/^name: .*/name: a second test/' "$cf/second.test.yaml"
  (cd "$cfdir" && env HOME="$cf/home" TMPDIR="$cf/tmp" CF_SECRET=$CF_SECRET \
    CF_PASSED=passed-by-env-4410 CF_SCENARIO="$cf/scenario.yaml" CF_HOME="$cf/home" \
    CF_REPO="$(cd "$here/../.." && pwd)" \
    unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' _ \
    timeout -k 5 60 "$ANANKE" run -c terminals.config.yaml terminals.test.yaml "$cf/second.test.yaml" \
    -r json:"$cf/fallback.json" >"$cf/fallback.out" 2>&1)
  cf_rc=$?
  check "confine: without namespaces the run still runs (exit 0, two tests)" \
    bash -c '[ "$1" = 0 ] && jq -e "[.tests[].status] == [\"pass\", \"pass\"]" "$2" >/dev/null || { echo "exit $1"; cat "$3"; exit 1; }' _ "$cf_rc" "$cf/fallback.json" "$cf/fallback.out"
  check "confine: without namespaces ananke says so once (one warning line for two tests)" \
    bash -c '[ "$(grep -c "^ananke: warning: cannot confine: unshare" "$1")" = 1 ] || { cat "$1"; exit 1; }' _ "$cf/fallback.out"
  check "confine: without namespaces terminals run as before (they read \$HOME)" has fallback TERM-READ-HOME
  check "confine: without namespaces the environment is still scrubbed" hasnt fallback "$CF_SECRET"
  pkill -f "sleep 12[78][.]25" 2>/dev/null
  sed -e 's/^  confine_paths:.*/  confine: required/' "$cfdir/terminals.config.yaml" >"$cf/required.config.yaml"
  (cd "$cfdir" && env HOME="$cf/home" TMPDIR="$cf/tmp" CF_SCENARIO="$cf/scenario.yaml" CF_PASSED=x \
    CF_REPO="$(cd "$here/../.." && pwd)" \
    unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' _ \
    timeout -k 5 60 "$ANANKE" run -c "$cf/required.config.yaml" terminals.test.yaml "$cf/second.test.yaml" \
    -r json:"$cf/required.json" >"$cf/required.out" 2>&1)
  cf_rc=$?
  check "confine: confine: required without namespaces: every test is an ERROR (exit 1)" \
    bash -c '[ "$1" = 1 ] && jq -e "[.tests[].status] == [\"error\", \"error\"] and all(.tests[]; .error.message | startswith(\"confine is '"'"'required'"'"', but cannot confine: unshare\"))" "$2" >/dev/null || { echo "exit $1"; cat "$3"; exit 1; }' _ "$cf_rc" "$cf/required.json" "$cf/required.out"
  check "confine: confine: required ran no terminal" hasnt required TERM-
else
  bad "confine: 'unshare -U -r' does not work here: the fallback and 'confine: required' are untested"
fi
stop_pids "$cf_spid" "${cf_listener:-}"
