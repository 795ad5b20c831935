#!/usr/bin/env bash
# The GitHub Action (action.yml) run locally, no network: its scripts run
# with the variables GitHub sets (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT,
# GITHUB_EVENT_NAME/PATH, GITHUB_REPOSITORY, GITHUB_API_URL) against a copy of
# examples/, the bundled mocks, and a fake REST API on 127.0.0.1
# (fake_api.py) that records every request. Checks the summary, the
# outputs, one comment created then updated (PATCH, never a second POST),
# the regressions of a baseline in the comment, a failing suite's exit code,
# that no planted secret reaches the summary, the outputs or the comment,
# and that action.yml is a composite action whose steps all name a shell.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
suite=action pass=0 fail=0
need_jq
B=$tests_build
[ -x "$B/ananke" ] && [ -x "$B/ananke-mock" ] || broken "no ananke in $B (make build)"
command -v python3 >/dev/null || broken "python3 is not installed"
root=$tests_root
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
wait_file() { for _ in $(seq 1 200); do [ -s "$1" ] && return 0; sleep 0.05; done; return 1; }

# action.yml: well-formed, composite, every run step names a shell
check "action.yml is a composite action, every step has shell: or uses:" python3 - "$root/action.yml" <<'PY'
import sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
for k in ("name", "description", "inputs", "outputs", "runs"):
    assert k in a, "no " + k
assert a["runs"]["using"] == "composite", a["runs"]["using"]
for i in ("args", "install", "version", "baseline", "github-token"):
    assert i in a["inputs"], "no input " + i
for o in ("exit-code", "total", "passed", "failed", "errors", "regressions"):
    assert "value" in a["outputs"][o], "output " + o
steps = a["runs"]["steps"]
for s in steps:
    assert ("run" in s and "shell" in s) or ("uses" in s and "run" not in s), s
assert any(s.get("uses", "").startswith("actions/upload-artifact@") for s in steps)
PY
for s in install run comment; do
  check "scripts/action/$s.sh is valid bash" bash -n "$root/scripts/action/$s.sh"
done

# the secrets: one --redact hides (in a test name), one the config sends as a
# header and the agent echoes (redacted as an environment secret), the token
secret=Zq7vKx93pLwT4mRn
envsecret=Hy4rPq8sLm2wXc6v
token=ghs_Fk29xQpTu7LmWz03Yv   # the GitHub token: never in any output
export ANANKE_ECHO_KEY=$envsecret
{ echo 'rules:'
  echo '  - match: "read my key back"'
  echo '    steps:'
  echo "      - text: \"your key is $envsecret\""
  sed '1,/^rules:/d' "$root/examples/mock/scenario.yaml"; } >"$tmp/scenario.yaml"

# the install step, without building: an ananke on PATH is used as it is;
# "path" without one, an unpublished version, an unknown mode: exit 2
inst() { # WANT_RC PATH MODE VERSION
  : >"$tmp/gh_path"
  PATH=$2 GITHUB_PATH="$tmp/gh_path" ANANKE_INSTALL=$3 ANANKE_VERSION=$4 GITHUB_ACTION_PATH="$tmp/nowhere" \
    /bin/bash "$root/scripts/action/install.sh" >"$tmp/install.log" 2>&1
  local rc=$?
  [ "$rc" = "$1" ] && [ ! -s "$tmp/gh_path" ] && return 0
  echo "exit $rc, expected $1"; cat "$tmp/install.log" "$tmp/gh_path"; return 1
}
check "install: auto uses the ananke on PATH" inst 0 "$B:/usr/bin:/bin" auto source
check "install: path uses the ananke on PATH" inst 0 "$B:/usr/bin:/bin" path source
check "install: path without an ananke on PATH: exit 2" inst 2 /usr/bin:/bin path source
check "install: deb with version source: exit 2 (a package needs a released version)" inst 2 "$B:/usr/bin:/bin" deb source
check "install: an unknown mode: exit 2" inst 2 "$B:/usr/bin:/bin" zip source

# the mocks and the fake API
"$B/ananke-mock" agui --scenario "$tmp/scenario.yaml" --port-file "$tmp/agui.port" >"$tmp/agui.log" 2>&1 &
pids+=($!)
"$B/ananke-mock" http --scenario "$root/examples/http/mock.yaml" --port-file "$tmp/http.port" >"$tmp/http.log" 2>&1 &
pids+=($!)
python3 "$here/fake_api.py" "$tmp/api.port" "$tmp/api.log" 2>"$tmp/api.err" &
pids+=($!)
wait_file "$tmp/agui.port" && wait_file "$tmp/http.port" && wait_file "$tmp/api.port" ||
  broken "the mocks or the fake API did not start: $(cat "$tmp"/*.log "$tmp/api.err")"
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$tmp/agui.port")/agent"
export ANANKE_HTTP_URL="http://127.0.0.1:$(cat "$tmp/http.port")"

# the project: examples/ plus a test whose name holds a secret --redact hides,
# and a failing test whose agent echoes the header's secret
cp -r "$root/examples" "$tmp/proj"
sed -i 's/^  headers:$/  headers:\n    X-Echo-Key: "${ENV.ANANKE_ECHO_KEY}"/' "$tmp/proj/ananke.config.yaml"
printf '%s\n' 'version: "1.0"' 'name: the agent reads the key back' 'turns:' '  - user: "read my key back"' \
  '    assert:' '      text:' '        must_match: "no key"' >"$tmp/proj/failing/echo.test.yaml"
sed "s/^name: .*/name: arithmetic for $secret/" "$root/examples/suite/text.test.yaml" >"$tmp/proj/suite/secret.test.yaml"
echo '{"action": "synchronize", "number": 7, "pull_request": {"number": 7}}' >"$tmp/pr.json"

export GITHUB_REPOSITORY=acme/agent GITHUB_API_URL="http://127.0.0.1:$(cat "$tmp/api.port")"
export GITHUB_EVENT_PATH="$tmp/pr.json" GITHUB_EVENT_NAME=pull_request
# step NAME ARGS [BASELINE]: the action's run step then its comment step, as action.yml runs them
step() {
  local name=$1
  : >"$tmp/$name.summary"; : >"$tmp/$name.output"
  (cd "$tmp/proj" && PATH="$B:$PATH" GITHUB_STEP_SUMMARY="$tmp/$name.summary" GITHUB_OUTPUT="$tmp/$name.output" \
     ANANKE_ARGS=$2 ANANKE_BASELINE=${3:-} ANANKE_REPORT_DIR=ananke-report GITHUB_TOKEN=$token \
     timeout -k 5 120 bash "$root/scripts/action/run.sh") >"$tmp/$name.run.log" 2>&1
  echo $? >"$tmp/$name.rc"
  (cd "$tmp/proj" && GITHUB_TOKEN=$token ANANKE_REPORT_DIR="$(sed -n 's/^report-dir=//p' "$tmp/$name.output")" \
     timeout -k 5 60 bash "$root/scripts/action/comment.sh") >"$tmp/$name.comment.log" 2>&1
  echo $? >"$tmp/$name.comment.rc"
}
output() { sed -n "s/^$2=//p" "$tmp/$1.output" | tail -n1; }
is() { [ "$1" = "$2" ] || { echo "got '$1', expected '$2'"; return 1; }; }
reset_api() { cat "$tmp/api.log" >>"$tmp/api.all" 2>/dev/null; : >"$tmp/api.log"; }
reqs() { jq -r '"\(.method) \(.path)"' "$tmp/api.log" 2>/dev/null; }
last_body() { jq -rs '[.[] | select(.method != "GET")] | last | .body | fromjson | .body' "$tmp/api.log"; }

# 1. a passing suite on a pull request: summary, outputs, one new comment
step pass "--redact $secret suite/"
check "pass: the run step exits 0" is "$(cat "$tmp/pass.rc")" 0
check "pass: the job summary holds the Markdown report" grep -q '^# ananke test report' "$tmp/pass.summary"
check "pass: the summary counts the 12 tests" grep -qF '| 12 | 12 | 0 | 0 | 0 |' "$tmp/pass.summary"
check "pass: outputs exit-code=0 total=12 passed=12 failed=0 errors=0" is \
  "$(output pass exit-code) $(output pass total) $(output pass passed) $(output pass failed) $(output pass errors)" "0 12 12 0 0"
for f in junit.xml results.json report.md html/index.html; do
  check "pass: the report $f is written for the artifact" test -s "$tmp/proj/ananke-report/$f"
done
check "pass: the comment step lists the comments, then POSTs one" is "$(reqs | tr '\n' ,)" \
  "GET /repos/acme/agent/issues/7/comments,POST /repos/acme/agent/issues/7/comments,"
check "pass: the token is sent as a bearer token" is "$(jq -rs '.[0].auth' "$tmp/api.log")" "Bearer $token"
last_body >"$tmp/c1.md"
check "pass: the comment opens with the marker and holds the report" \
  bash -c 'head -n1 "$1" | grep -qxF "<!-- ananke-report -->" && grep -qF "| 12 | 12 | 0 | 0 | 0 |" "$1"' _ "$tmp/c1.md"

# 2. the same again: the comment is updated, not posted twice
reset_api
step again "--redact $secret suite/"
check "again: the comment is PATCHed, not posted again" is "$(reqs | tr '\n' ,)" \
  "GET /repos/acme/agent/issues/7/comments,PATCH /repos/acme/agent/issues/comments/1001,"

# 3. a failing suite: the step fails with ananke's exit code; the comment says so
reset_api
step failing "failing/"
check "failing: the run step exits 1" is "$(cat "$tmp/failing.rc")" 1
check "failing: outputs exit-code=1 failed=2" is "$(output failing exit-code) $(output failing failed)" "1 2"
check "failing: the comment step still succeeds" is "$(cat "$tmp/failing.comment.rc")" 0
last_body >"$tmp/c3.md"
check "failing: the updated comment names the failed test" grep -qF 'large refunds need an order lookup' "$tmp/c3.md"
check "invalid files: exit 2 and exit-code=2" bash -c '
  cd "$1" && printf "version: \"1.0\"\nname: [\n" >bad.test.yaml && PATH="$2:$PATH" GITHUB_OUTPUT="$3" ANANKE_ARGS=bad.test.yaml \
  ANANKE_REPORT_DIR=bad-report bash "$4" >/dev/null 2>&1; rc=$?
  [ $rc = 2 ] && grep -qx "exit-code=2" "$3"' _ "$tmp/proj" "$B" "$tmp/bad.output" "$root/scripts/action/run.sh"

# 4. a baseline: the regressions from ananke compare join the comment
(cd "$tmp/proj" && ANANKE_HTTP_VERSION=baseline "$B/ananke" run -c http/ananke.config.yaml http/ \
   --record "$tmp/baseline" >"$tmp/baseline.log" 2>&1)
reset_api
ANANKE_HTTP_VERSION=new step compare "-c http/ananke.config.yaml http/" "$tmp/baseline"
check "compare: the run step exits 1 (the new build has failures)" is "$(cat "$tmp/compare.rc")" 1
check "compare: output regressions is the compare report's count" is "$(output compare regressions)" \
  "$(jq -r '.summary.regressions' "$tmp/proj/ananke-report/compare/compare-report.json" 2>/dev/null)"
check "compare: there are regressions" test "$(output compare regressions)" -gt 0
last_body >"$tmp/c4.md"
check "compare: the comment lists the regressions" bash -c 'grep -qF "## Regressions against the baseline" "$1" &&
  [ "$(grep -c "^| .* | pass | " "$1")" = "$2" ]' _ "$tmp/c4.md" "$(output compare regressions)"
check "compare: still one comment, updated" is "$(reqs | tr '\n' ,)" \
  "GET /repos/acme/agent/issues/7/comments,PATCH /repos/acme/agent/issues/comments/1001,"

# 5. not a pull request: no API call at all
reset_api
GITHUB_EVENT_NAME=push step push "--redact $secret suite/"
check "push: the run passes and nothing is sent to the API" bash -c '[ "$(cat "$1")" = 0 ] && [ ! -s "$2" ]' _ "$tmp/push.rc" "$tmp/api.log"

# 5b. the comment's limits, on reports made here: a report over 50000 bytes
# gives only its totals; 31 regressions give 30 rows and "1 more"; a case
# name cannot break the table or add HTML
mkdir -p "$tmp/big/compare"
{ printf '# ananke test report\n\n| Total |\n|---:|\n| 9 |\n\n## Failed and errored tests\n\n```text\n'
  head -c 60000 /dev/zero | tr '\0' x; printf '\n```\n'; } >"$tmp/big/report.md"
jq -n '{summary: {regressions: 31, improvements: 0, baseline_pass: 31, new_pass: 0},
        items: [range(31) | {case_id: "c\(.) |<img src=x>|\n# h", change: "regression", baseline_status: "pass",
                             new_status: "fail", new_root: "text_mismatch", gate_recommendation: "require_approval"}]}' \
  >"$tmp/big/compare/compare-report.json"
reset_api
(GITHUB_TOKEN=$token ANANKE_REPORT_DIR="$tmp/big" bash "$root/scripts/action/comment.sh") >"$tmp/big.log" 2>&1
last_body >"$tmp/cbig.md"
check "limits: a long report: its totals only, and where the rest is" bash -c '
  [ "$(wc -c <"$1")" -lt 10000 ] && grep -qF "| 9 |" "$1" && grep -qF "too long for a comment" "$1" && ! grep -q "^\`\`\`" "$1"' _ "$tmp/cbig.md"
check "limits: 30 regression rows, then how many more" bash -c '
  [ "$(grep -c "^| c[0-9]" "$1")" = 30 ] && grep -qF "and 1 more" "$1"' _ "$tmp/cbig.md"
check "limits: a case name is escaped (no cell break, no HTML, one line)" bash -c '
  grep -qF "| c0 \\|\\<img src=x\\>\\| # h | pass | fail |" "$1" && ! grep -q "[^\\\\]<img" "$1"' _ "$tmp/cbig.md"

# 6. the example workflow of docs/ci.md (examples/ci/github-workflow.yml): the
# inputs and outputs it names are the action's, and its arguments and
# baseline, run by the action's scripts, pass with no regression
check "example workflow: its inputs and outputs are the action's" python3 - "$root/examples/ci/github-workflow.yml" "$root/action.yml" "$tmp/example.env" <<'PY'
import re, shlex, sys, yaml
wf, action = yaml.safe_load(open(sys.argv[1])), yaml.safe_load(open(sys.argv[2]))
steps = wf["jobs"]["ananke"]["steps"]
(step,) = [s for s in steps if s.get("uses", "").startswith("ananke/ananke@")]
for k in step["with"]:
    assert k in action["inputs"], "no input " + k
for o in re.findall(r"steps\.ananke\.outputs\.([a-z-]+)", open(sys.argv[1]).read()):
    assert o in action["outputs"], "no output " + o
with open(sys.argv[3], "w") as f:
    f.write("wd=%s\nargs=%s\nbaseline=%s\n" % tuple(shlex.quote(step["with"][k]) for k in ("working-directory", "args", "baseline")))
PY
if [ -s "$tmp/example.env" ]; then
  . "$tmp/example.env"
  rm -rf "$tmp/repo" && mkdir -p "$tmp/repo" && cp -r "$root/examples" "$tmp/repo/$wd"
  (cd "$tmp/repo/$wd" && "$B/ananke" run suite/ --record "$baseline" >"$tmp/example-baseline.log" 2>&1)
  reset_api
  (cd "$tmp/repo/$wd" && PATH="$B:$PATH" GITHUB_STEP_SUMMARY="$tmp/example.summary" GITHUB_OUTPUT="$tmp/example.output" \
     ANANKE_ARGS=$args ANANKE_BASELINE=$baseline bash "$root/scripts/action/run.sh") >"$tmp/example.log" 2>&1
  check "example workflow: its run passes, no regression against its baseline" is \
    "$? $(output example exit-code) $(output example passed) $(output example regressions)" "0 0 11 0"
fi

# 7. no secret anywhere: summaries, outputs, comments sent, logs
check "secrets: the --redact secret reached the report as [redacted]" grep -qF "arithmetic for \\[redacted\\]" "$tmp/pass.summary"
check "secrets: the echoed header secret reached the failing report as [redacted]" grep -qF "your key is [redacted]" "$tmp/failing.summary"
check "secrets: none of the three secrets is in any summary, output, comment or log" bash -c '
  ! grep -rlF -e "$1" -e "$2" -e "$4" "$3"/*.summary "$3"/*.output "$3"/*.log "$3"/c*.md "$3/proj/ananke-report"' _ "$secret" "$token" "$tmp" "$envsecret"
reset_api
check "secrets: no request body sent to the API holds any of them" bash -c '
  [ -s "$3" ] && ! jq -r .body "$3" | grep -qF -e "$1" -e "$2" -e "$4"' _ "$secret" "$token" "$tmp/api.all" "$envsecret"
check "secrets: the token is never on curl's command line (no -H Authorization)" bash -c '
  ! grep -nE -- "-H [\"'"'"']Authorization" "$1"' _ "$root/scripts/action/comment.sh"
finish
