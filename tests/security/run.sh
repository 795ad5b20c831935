#!/usr/bin/env bash
# shellcheck disable=SC2317 # functions run through check (lib.sh)
# The claims of docs/security.md, each shown on a real run:
#
#   secrets   a hook hands out secrets, the target's headers carry one from
#             the environment, the agent echoes them back cut every way
#             (secrets2.sh); every output of the run (every reporter, -v,
#             -vv, GitHub annotations, --record, a replay, a merge, two
#             compare packs) is searched for each secret and any piece of one
#   hostile   an agent whose text, tool names, arguments, results and errors
#             carry markup, escape sequences and line-start tricks (and one
#             that sends invalid UTF-8): every report must stay well formed
#             and show them as text
#   acp       an ACP agent tries every way out of its sandbox (.., absolute
#             paths, symlinks it makes itself, a terminal cwd outside)
#   confine   terminals and a confined agent cannot read what is hidden,
#             write outside, reach the network or other processes, leave
#             anything running, or see ananke's environment (confine.sh)
#   loopback  every mock server listens on 127.0.0.1 only; ananke listens on
#             nothing
#   origin    (origin.sh) credentials stay with their origin: redirects and
#             an agent card's URL on another port; recordings read without
#             following links; NULs and answers that are no stream named
#
# Output lands in tests/security/out/. Usage: tests/security/run.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
suite=security
B=$tests_build
ANANKE="${ANANKE:-$B/ananke}"
MOCK="$B/ananke-mock"
export MOCK
pass=0 fail=0
need_jq
command -v python3 >/dev/null 2>&1 || broken "python3 is not installed"
if [ ! -x "$ANANKE" ] || [ ! -x "$MOCK" ]; then broken "build ananke and ananke-mock first ($B)"; fi

out=$here/out
rm -rf "$out"
mkdir -p "$out"
pids=()
trap 'stop_pids "${pids[@]}"' EXIT

# start NAME ARGS...: ananke-mock ARGS with --port-file $out/NAME.port; its
# URL in $url, its pid in $spawned_pid (and in $pids, stopped on exit).
start() {
  local name=$1; shift
  if ! spawn_server "$out/$name.port" 0.05 "$out/$name.stdout" "$out/$name.stderr" \
    "$MOCK" "$@" --port-file "$out/$name.port"; then
    pids+=("$spawned_pid")
    bad "$name: ananke-mock $1 did not start"; sed 's/^/    /' "$out/$name.stderr" | head -n 5
    return 1
  fi
  pids+=("$spawned_pid")
  url="http://127.0.0.1:$(cat "$out/$name.port")"
}

# absent STRING PATH...: no file under PATH holds STRING (bytes, any case).
absent() {
  local s=$1; shift
  local hits
  hits=$(grep -rlaiF -- "$s" "$@" 2>/dev/null)
  [ -z "$hits" ] && return 0
  echo "'$s' found in:"; echo "${hits//"$out/"/}"
  return 1
}
# present STRING FILE...: every FILE holds STRING.
present() {
  local s=$1 f; shift
  for f in "$@"; do
    grep -qaF -- "$s" "$f" || { echo "'$s' not in ${f#"$out"/}"; return 1; }
  done
}

# ---------------------------------------------------------------- secrets
# Random-looking secrets: no six bytes of one are in ordinary text, so any
# piece of one found in an output is a leak (secrets2.sh's sliding window).
S_ENV=vqWNzwZZvYJXGwGqM3vz           # the target's X-Api-Key, from the environment
S_HDR=tzwQ62wZxKGgNSyS4P76           # a hook's SESSION_TOKEN, in the Authorization header
S_ECHO=sk-3HH8K5qJY62sZtwxVrT2       # a hook's API_TOKEN, sent in a message and echoed back
S_ENV2=Y6pw7G4N4YnZsYsZnzn4          # the target's X-Echo-Key, from the environment, echoed back
# and those of secrets2.sh (each in its own test of secrets/)
S_IL=PxS743grnYSSvRTrHSQs            # streamed in a message whose deltas alternate with another's
S_CC=NN9KrV4h6Vst9Vg255X5            # streamed as TEXT_MESSAGE_CONTENT, then TEXT_MESSAGE_CHUNK
S_TA=pg8GVSY95YTsyvvQKZkn            # in tool arguments whose deltas alternate with another call's
S_FH=P4v3sxGmt6yrKp7QmPNn            # printed by a hook that then fails
S_TH=8HPtST2T3gHVj6GSHnxJ            # printed by a hook that then hangs past its timeout
S_ML=tQrWnpMG5X36nymXMtny            # next to text a --redact pattern gives up on (match limit)
S_HB=Q4Z32RSKXh2wxhnSQm6g            # in an HTTP error body, across the 300-byte cut
S_RN=rn-Hxz4rMhryWHh3V2tHTrZ         # in a test name, matched by --redact
secrets_all=("$S_ENV" "$S_HDR" "$S_ECHO" "$S_ENV2" "$S_IL" "$S_CC" "$S_TA" "$S_FH" "$S_TH" "$S_ML"
  "$S_HB" "$S_RN")
red_args=(--redact 'rn-[A-Za-z0-9]{20}' --redact '(x+x+)+y')
sec=$out/secrets
mkdir -p "$sec/run-a" "$sec/run-b" "$sec/replay" "$sec/merge" "$sec/mock"
if start secrets-mock agui --scenario "$here/secrets/scenario.yaml" \
  --requests "$sec/mock/requests.jsonl"; then
  export ANANKE_MOCK_URL="$url/agent" SEC_ENV_TOKEN=$S_ENV SEC_ECHO_KEY=$S_ENV2
  a=$sec/run-a b=$sec/run-b
  (cd "$here/secrets" && timeout -k 5 60 "$ANANKE" run . -vv --color always "${red_args[@]}" \
    -r junit:"$a/junit.xml" -r json:"$a/results.json" -r tap:"$a/results.tap" \
    -r md:"$a/report.md" -r html:"$a/html" -r jsonl:"$a/events.jsonl" -o "$a/x.jsonl" \
    -o "$a/page.html" --record "$sec/rec-a" >"$a/stdout" 2>"$a/stderr")
  rc_a=$?
  (cd "$here/secrets" && GITHUB_ACTIONS=true timeout -k 5 60 "$ANANKE" run . -v -j 4 \
    "${red_args[@]}" -r json:"$b/results.json" --record "$sec/rec-b" >"$b/stdout" 2>"$b/stderr")
  (cd "$here/secrets" && timeout -k 5 60 "$ANANKE" replay "$sec/rec-a" -v "${red_args[@]}" \
    -r json:"$sec/replay/results.json" -r html:"$sec/replay/html" \
    >"$sec/replay/stdout" 2>"$sec/replay/stderr")
  timeout -k 5 60 "$ANANKE" merge "$a/results.json" "$b/results.json" -v \
    -r junit:"$sec/merge/junit.xml" -r md:"$sec/merge/report.md" \
    >"$sec/merge/stdout" 2>"$sec/merge/stderr"
  timeout -k 5 60 "$ANANKE" compare "$sec/rec-a" "$sec/rec-b" -o "$sec/pack" \
    --redact secrets >"$sec/compare.stdout" 2>"$sec/compare.stderr"
  rc_c=$?
  timeout -k 5 60 "$ANANKE" compare "$sec/rec-a" "$sec/rec-b" -o "$sec/pack-plain" \
    >"$sec/compare-plain.stdout" 2>"$sec/compare-plain.stderr"
  rc_p=$?
  stop_pids "$spawned_pid"
  unset ANANKE_MOCK_URL SEC_ENV_TOKEN SEC_ECHO_KEY
  outputs=("$sec/run-a" "$sec/run-b" "$sec/rec-a" "$sec/rec-b" "$sec/replay" "$sec/merge"
    "$sec/pack" "$sec/pack-plain" "$sec"/compare*.std*)

  check "secrets: the run, the replay and both compares ran (exit 1, 0, 0)" \
    test "$rc_a $rc_c $rc_p" = "1 0 0" -a -s "$sec/rec-a/run.json" -a -s "$sec/pack/report.html"
  # the secrets were really in play: sent to the agent and echoed back
  check "secrets: all three reached the agent (its request log)" \
    present '"authorization":"Bearer '$S_HDR'"' "$sec/mock/requests.jsonl"
  check "secrets: the environment secret was sent as X-Api-Key" \
    present '"x-api-key":"'$S_ENV'"' "$sec/mock/requests.jsonl"
  check "secrets: the hook secret was sent in the message" \
    present "log me in with $S_ECHO" "$sec/mock/requests.jsonl"
  # no secret reaches any output of ananke: every reporter, the console
  # (-v, -vv), annotations, recordings, the replay, the merge, both packs
  for s in "${secrets_all[@]}"; do
    check "secrets: '$s' is in no output (reports, -v, -vv, annotations, recordings, replay, merge, packs)" \
      absent "$s" "${outputs[@]}"
  done
  check "secrets: reports list hook variables by name only" \
    jq_true "$a/results.json" '[.tests[] | select(.name == "the agent echoes a secret") | .variables] == [["SESSION_TOKEN", "API_TOKEN", "CART"]]'
  check "secrets: vars.json keeps the names, redacts the secret-looking values" \
    jq_true "$sec/rec-a/tests/the_agent_echoes_a_secret/vars.json" \
    '. == {"SESSION_TOKEN": "[redacted]", "API_TOKEN": "[redacted]", "CART": "cart-7"}'
  check "secrets: redactions.json says what was redacted, where" \
    jq_true "$sec/rec-a/redactions.json" '[.[] | select(.file | test("echoes"))] as $e
      | ($e | map(.what) | unique) ==
        ["environment variable SEC_ECHO_KEY", "hook variable API_TOKEN", "hook variable SESSION_TOKEN"]
      and ($e | map(.file) | unique) == ["tests/the_agent_echoes_a_secret/frames.jsonl",
        "tests/the_agent_echoes_a_secret/result.json", "tests/the_agent_echoes_a_secret/vars.json"]
      and (map(.file) | index("results.json"))'
  check "secrets: the recorded text reads [redacted] where the secret was" \
    jq_true "$sec/rec-a/results.json" \
    '.tests[] | select(.name == "the agent echoes a secret") | .transcript.turns[0].text == "Logged in with [redacted], welcome."'
  # what the agent said is shown redacted by the run's own reports, as in
  # the recording (docs/security.md)
  check "secrets: the run's reports show [redacted] where the agent echoed a secret" \
    present "Logged in with [redacted], welcome." "$a/stdout" "$a/junit.xml" "$a/results.json" \
    "$a/results.tap" "$a/report.md" "$a/html/index.html" "$a/events.jsonl" "$a/page.html" "$b/stdout"
  # shellcheck source-path=SCRIPTDIR source=secrets2.sh
  . "$here/secrets2.sh"
fi

# ---------------------------------------------------------------- hostile
# is_clean FILE [console|json]: valid UTF-8 with no control character but
# \n and \t, no C1 control, no bidi override or line separator; for the
# console, ananke's own colours (ESC [ digits m) are allowed; JSON keeps the
# agent's text exactly, so only C0 controls (escaped, as JSON requires) count.
is_clean() {
  python3 - "$@" <<'EOF'
import re, sys
data = open(sys.argv[1], "rb").read()
mode = sys.argv[2] if len(sys.argv) > 2 else ""
if mode == "console":
    data = re.sub(rb"\x1b\[[0-9;]*m", b"", data)
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("invalid UTF-8: %s: %r" % (e, data[max(0, e.start - 40):e.end + 10]))
for i, c in enumerate(text):
    o = ord(c)
    if (o < 0x20 and c not in "\n\t") or (mode != "json" and (0x7F <= o <= 0x9F
            or o in (0x2028, 0x2029) or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069)):
        sys.exit("U+%04X at %d: %r" % (o, i, text[max(0, i - 40):i + 10]))
EOF
}
# xml_ok FILE: well-formed XML, and (with a second argument) some text or
# attribute of it holds that string exactly: it survived as text.
xml_ok() {
  if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$1" || return 1
  fi
  python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
if len(sys.argv) > 2:
    want = sys.argv[2]
    for e in root.iter():
        if want in (e.text or "") or any(want in v for v in e.attrib.values()):
            sys.exit(0)
    sys.exit("%r is not the text of any element or attribute" % want)
EOF
}
# html_ok FILE: the agent's <script> is text (&lt;script&gt;), never markup;
# the only <script> elements are ananke's own (a data block, or the report's
# one script, allowed by hash in the Content-Security-Policy).
html_ok() {
  python3 - "$@" <<'EOF'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
for bad in ("<script>alert", "alert(1)</script>", "alert(2)</script>", "alert(3)</script>",
            "href=\"http://evil", "</testcase>"):
    if bad in html:
        sys.exit("raw %r in the page" % bad)
scripts = re.findall(r"<script\b[^>]*>", html)
if len(scripts) > 2:
    sys.exit("%d <script> elements: %r" % (len(scripts), scripts))
if "Content-Security-Policy" not in html:
    sys.exit("no Content-Security-Policy")
if len(sys.argv) > 2 and "&lt;script&gt;alert(1)&lt;/script&gt;" not in html:
    sys.exit("the agent's text is not shown")
EOF
}
# md_ok FILE: agent text starts no heading, table row, list or fence: outside
# the code blocks ananke opens no line holds the word "forged", and every
# block ends where ananke closes it (CommonMark: a closing fence is the same
# character, at least as long, alone on its line).
md_ok() {
  python3 - "$1" <<'EOF'
import re, sys
fence = None
for n, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n"), 1):
    m = re.match(r"^ {0,3}(`{3,}|~{3,})(.*)$", line)
    if fence is None:
        if m:
            fence = m.group(1)
        elif "forged" in line or "evil" in line:
            sys.exit("line %d outside a code block: %r" % (n, line))
    elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
        fence = None
if fence is not None:
    sys.exit("a code block is never closed")
EOF
}
# tap_ok FILE N: a plan 1..N and N test points; every other line is indented
# (a YAML block) or the version line: no forged test point, plan or bail out.
tap_ok() {
  python3 - "$1" "$2" <<'EOF'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
n = int(sys.argv[2])
points = [l for l in lines if re.match(r"^(not )?ok\b", l)]
if len(points) != n:
    sys.exit("%d test points, expected %d: %r" % (len(points), n, points))
for i, l in enumerate(points, 1):
    if not re.match(r"^(not )?ok %d - " % i, l):
        sys.exit("test point %d reads %r" % (i, l))
for l in lines:
    # ananke's own closing comments (tap.c) are the only other lines
    own = r"# agent calls: \d+|# \d+ flaky tests? \(runs that disagree\)(: --fail-on-flaky fails the run)?|# \d+ tests? not run \(--fail-fast\)"
    if l and not l.startswith("  ") and not re.match(r"^((not )?ok \d+ - |TAP version 14$|1\.\.%d$|(%s)$)" % (n, own), l):
        sys.exit("a line outside the test points and their YAML blocks: %r" % l)
EOF
}
# json_ok DIR: results.json is one JSON document, every line of the JSONL
# files is one.
json_ok() {
  jq -e 'has("tests")' "$1/results.json" >/dev/null || return 1
  python3 - "$1/x.jsonl" "$1/events.jsonl" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    # JSON Lines end at \n only (str.splitlines would also cut at U+0085,
    # U+2028 ..., which a JSON string may hold as they are)
    for line in open(path, encoding="utf-8", newline="").read().split("\n"):
        if line:
            json.loads(line)
EOF
}
# gha_ok FILE: as a GitHub Actions runner reads a log (leading blanks
# trimmed, "::" at the start or the legacy "##[" anywhere is a command):
# the only commands are ananke's own annotations.
gha_ok() {
  python3 - "$1" <<'EOF'
import re, sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n"), 1):
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)
    # ananke's own annotation: the runner takes it as that command and
    # looks no further (ActionCommandManager tries "::" before "##[")
    if re.match(r"^::(error|warning|notice) file=[^:]*::", line):
        continue
    if "##[" in line:
        sys.exit("line %d holds a legacy command: %r" % (n, line))
    if line.lstrip().startswith("::"):
        sys.exit("line %d is a workflow command: %r" % (n, line))
EOF
}

hos=$out/hostile
mkdir -p "$hos"
# The raw agent: frames no scenario can hold (invalid UTF-8, a raw ESC, a
# frame that is not JSON); served by sse_raw.py.
printf '%b' \
  'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n' \
  'data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}\n\n' \
  'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"fine \\u001b[2J \\u0085 ok"}\n\n' \
  'data: {"d":"\xff\xfe\xc3(\x1b[2J\x1b]0;t\x07<script>alert(2)</script>]]> ::add-mask::x ##[error]forged"}\n\n' \
  'data: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\n' \
  'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n' >"$hos/raw.sse"

hostile_run() { # NAME URL PATH... : every reporter on one run, in $hos/NAME
  local name=$1 u=$2 d=$hos/$1; shift 2
  mkdir -p "$d"
  (cd "$here/hostile" && ANANKE_MOCK_URL=$u GITHUB_ACTIONS=true timeout -k 5 60 "$ANANKE" \
    run "$@" -vv --color always -r junit:"$d/junit.xml" -r json:"$d/results.json" \
    -r tap:"$d/results.tap" -r md:"$d/report.md" -r html:"$d/html" \
    -r jsonl:"$d/events.jsonl" -o "$d/x.jsonl" -o "$d/page.html" >"$d/stdout" 2>"$d/stderr")
}
raw_pid=""
if start hostile-mock agui --scenario "$here/hostile/scenario.yaml"; then
  hostile_run mock "$url/agent" fail.test.yaml error.test.yaml pass.test.yaml
  check "hostile: the run ran (exit 1: one FAIL, one ERROR, one PASS)" \
    jq_true "$hos/mock/results.json" '[.tests[].status] == ["fail", "error", "pass"]'
fi
python3 "$here/sse_raw.py" "$hos/raw.sse" "$out/raw.port" >"$out/raw.stdout" 2>"$out/raw.stderr" &
raw_pid=$!
pids+=("$raw_pid")
for _ in $(seq 1 100); do [ -s "$out/raw.port" ] && break; sleep 0.05; done
if [ -s "$out/raw.port" ]; then
  hostile_run raw "http://127.0.0.1:$(cat "$out/raw.port")/agent" raw/raw.test.yaml
  check "hostile: the raw agent's run ran (one ERROR: the frame is not JSON)" \
    jq_true "$hos/raw/results.json" '[.tests[].status] == ["error"]'
else
  bad "hostile: sse_raw.py did not start"; sed 's/^/    /' "$out/raw.stderr" | head -n 5
fi
stop_pids "$raw_pid"

H=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"][2]["transcript"]["turns"][0]["text"])' \
  "$hos/mock/results.json" 2>/dev/null)
for r in mock raw; do
  d=$hos/$r
  [ -f "$d/stdout" ] || continue
  for f in "$d/junit.xml" "$d/results.json" "$d/results.tap" "$d/report.md" \
    "$d/html/index.html" "$d/page.html" "$d/events.jsonl" "$d/x.jsonl" "$d/stderr"; do
    mode=""
    case $f in *.json | *.jsonl) mode=json ;; esac
    check "hostile $r: ${f#"$d"/} is UTF-8 without a control character" is_clean "$f" $mode
  done
  check "hostile $r: the console shows no control character but ananke's colours" \
    is_clean "$d/stdout" console
  if [ $r = mock ]; then
    check "hostile $r: JUnit is well-formed XML, '</system-out>' kept as text" \
      xml_ok "$d/junit.xml" '</system-out></testcase>'
    check "hostile $r: HTML report shows <script> as text" html_ok "$d/html/index.html" shown
    check "hostile $r: HTML page (-o .html) shows <script> as text" html_ok "$d/page.html" shown
  else
    check "hostile $r: JUnit is well-formed XML" xml_ok "$d/junit.xml"
    check "hostile $r: HTML report has no markup from the agent" html_ok "$d/html/index.html"
    check "hostile $r: HTML page (-o .html) has no markup from the agent" html_ok "$d/page.html"
  fi
  check "hostile $r: Markdown starts no heading, row or fence from agent text" md_ok "$d/report.md"
  n=3; [ $r = raw ] && n=1
  check "hostile $r: TAP has only ananke's $n test points" tap_ok "$d/results.tap" $n
  check "hostile $r: JSON and JSONL parse" json_ok "$d"
  check "hostile $r: GitHub Actions sees only ananke's annotations (console)" gha_ok "$d/stdout"
done
if [ -n "$H" ]; then
  check "hostile: the JSON report keeps the agent's text exactly (round trip)" \
    python3 -c 'import sys; h = sys.argv[1]; sys.exit(0 if "\x1b[2J" in h and "</system-out>" in h and "\nok 99" in h and "\r" in h else "lost: %r" % h)' "$H"
else
  bad "hostile: no text in the JSON report"
fi

# ---------------------------------------------------------------- acp
acp=$out/acp
outside=$acp/outside
mkdir -p "$outside" "$acp/tmp"
canary="canary-7e1d-do-not-read"
echo "$canary" >"$outside/canary.txt"
echo "not-confined-4c2b" >"$outside/not-confined.txt"
echo "sibling-$canary" >"$acp/tmp/canary-sibling.txt" # next to the sandboxes
before=$(cd "$outside" && sha256sum canary.txt not-confined.txt)
sed "s#@OUTSIDE@#$outside#g" "$here/acp/scenario.in.yaml" >"$acp/scenario.yaml"
(cd "$here/acp" && ACP_SCENARIO="$acp/scenario.yaml" TMPDIR="$acp/tmp" \
  ACP_ENV_CANARY=env-visible-to-the-agent-99 timeout -k 5 60 \
  "$ANANKE" run . -vv -r json:"$acp/results.json" -r junit:"$acp/junit.xml" \
  >"$acp/stdout" 2>"$acp/stderr")
rc=$?
check "acp: the run ran (exit 0)" test "$rc" = 0 -a -s "$acp/results.json"
# refused (METHOD, PATH ending, MESSAGE ending): ananke's answer to that request
refused() {
  # shellcheck disable=SC2016 # $m, $p, $e are jq's
  jq_true "$acp/results.json" '
    [.tests[0].transcript.tool_calls[] | select(.name == $m)
     | select(((.args.path // .args.cwd) // "") | endswith($p))]
    | length == 1 and (.[0].result.error.message | endswith($e))
      and .[0].result.error.code == -32602' --arg m "$1" --arg p "$2" --arg e "$3"
}
for c in \
  "fs/read_text_file|/../../../../../../../../../etc/passwd|' is outside the sandbox" \
  "fs/read_text_file|$outside/canary.txt|' is outside the sandbox" \
  "fs/write_text_file|$outside/canary.txt|' is outside the sandbox" \
  "fs/write_text_file|/../escaped.txt|' is outside the sandbox" \
  "fs/write_text_file|/sub/../../escaped2.txt|' is outside the sandbox" \
  "fs/read_text_file|/filelink|' is outside the sandbox" \
  "fs/write_text_file|/filelink|' is outside the sandbox" \
  "fs/read_text_file|/dirlink/canary.txt|' is outside the sandbox" \
  "fs/write_text_file|/dirlink/new.txt|' is outside the sandbox" \
  "fs/write_text_file|/dirlink/../../escaped3.txt|' is outside the sandbox" \
  "fs/read_text_file|/up/canary-sibling.txt|' is outside the sandbox" \
  "terminal/create|$outside|' is outside the sandbox" \
  "terminal/create|/outside/../outside|' is outside the sandbox" \
  "terminal/create|relative/dir|' is not absolute"; do
  IFS='|' read -r m p e <<<"$c"
  check "acp: $m '${p#"$out"/}' refused: ...$e" refused "$m" "$p" "$e"
done
check "acp: each refusal is a warning of its turn (14 violations)" \
  jq_true "$acp/results.json" '[.tests[0].transcript.turns[].warnings[]? | select(startswith("violation: "))] | length == 14'
check "acp: the symlinks were made (by the agent's terminal)" \
  jq_true "$acp/results.json" '[.tests[0].transcript.tool_calls[] | select(.name == "terminal/wait_for_exit") | .result.exitCode] | .[0:3] == [0, 0, 0]'
check "acp: nothing outside the sandbox changed" \
  test "$(cd "$outside" && sha256sum canary.txt not-confined.txt)" = "$before" -a \
  "$(find "$acp" -name 'escaped*' -o -name new.txt -o -name made-by-terminal | wc -l)" = 0 -a \
  "$(find "$outside" -mindepth 1 | wc -l)" = 2
for s in "$canary" root:x:0:0; do
  check "acp: no output holds '$s' (the canary, /etc/passwd)" \
    absent "$s" "$acp/stdout" "$acp/stderr" "$acp/results.json" "$acp/junit.xml"
done
check "acp: inside the sandbox, writing and reading work" \
  jq_true "$acp/results.json" '[.tests[0].transcript.tool_calls[] | select(.name == "fs/read_text_file" and (.args.path | endswith("/ok/inside.txt"))) | .result.content] == ["fine"]'
check "acp: the sandbox is removed after the test" \
  test "$(find "$acp/tmp" -mindepth 1 -maxdepth 1 -name 'ananke-sandbox-*' | wc -l)" = 0

# ---------------------------------------------------------------- confine
# shellcheck source=confine.sh
. "$here/confine.sh"
# the ACP sandbox against planted links, special files and odd path shapes
# shellcheck source=acp_escapes.sh
. "$here/acp_escapes.sh"
# shellcheck source=comply.sh
. "$here/comply.sh"

# ---------------------------------------------------------------- loopback
# listeners PID: the local address:port (hex, as /proc/net/tcp{,6} write
# it) of every listening TCP socket of PID, one a line.
listeners() {
  local inodes
  inodes=$(find "/proc/$1/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | tr -dc '0-9\n')
  [ -n "$inodes" ] || return 0
  awk -v list="$inodes" 'BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
    FNR > 1 && $4 == "0A" && ($10 in want) { print $2 }' /proc/net/tcp /proc/net/tcp6
}
# loopback_only PID: at least one listener, each on 127.0.0.1.
loopback_only() {
  local l
  l=$(listeners "$1")
  [ -n "$l" ] || { echo "pid $1 listens on nothing"; return 1; }
  if grep -qv '^0100007F:' <<<"$l"; then echo "pid $1 listens on: $l"; return 1; fi
}
# no_listener PID: PID is running and listens on nothing.
no_listener() {
  if [ -z "$1" ] || [ ! -d "/proc/$1" ]; then echo "no such process '$1'"; return 1; fi
  local l
  l=$(listeners "$1")
  [ -z "$l" ] || { echo "pid $1 listens on: $l"; return 1; }
}
lb=$here/loopback
for m in "agui --scenario $lb/agui.yaml" "openai --scenario $lb/openai.yaml" \
  "http --scenario $lb/http.yaml" "mcp --http" "a2a" "a2a --version 0.3"; do
  name=lb-$(tr ' .' '--' <<<"${m%% --scenario*}")
  # shellcheck disable=SC2086 # the words of $m are the arguments
  if start "$name" $m; then
    check "loopback: ananke-mock ${m%% --scenario*} listens on 127.0.0.1 only" loopback_only "$spawned_pid"
    stop_pids "$spawned_pid"
  fi
done
# the check sees a server on every address (it can fail)
python3 -c 'import socket, time
s = socket.socket(); s.bind(("0.0.0.0", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' \
  >"$out/any.port" 2>&1 &
any_pid=$!
pids+=("$any_pid")
for _ in $(seq 1 100); do [ -s "$out/any.port" ] && break; sleep 0.05; done
check "loopback: the check flags a server on 0.0.0.0" bash -c '! "$@"' _ loopback_only "$any_pid"
stop_pids "$any_pid"
# ananke itself, caught mid-turn: no listening socket
if start lb-stall agui --scenario "$lb/agui.yaml" --requests "$out/lb-stall.requests"; then
  (cd "$lb" && ANANKE_MOCK_URL="$url/agent" exec timeout -k 5 60 "$ANANKE" run . \
    >"$out/lb-ananke.stdout" 2>&1) &
  ananke_pid=$!
  pids+=("$ananke_pid")
  for _ in $(seq 1 100); do [ -s "$out/lb-stall.requests" ] && break; sleep 0.05; done
  # the child of timeout is ananke
  apid=$(pgrep -P "$ananke_pid" | head -n1)
  check "loopback: ananke mid-run listens on no socket" no_listener "$apid"
  stop_pids "$ananke_pid" "$spawned_pid"
fi

# shellcheck source-path=SCRIPTDIR source=origin.sh
. "$here/origin.sh"

finish
