# quality_flags.portable_paths is computed from the paths a pack stores:
# runs recorded from another directory with absolute paths store only
# project-relative ones (true); a test file outside the project keeps its
# absolute path, and the flag says so (false, with the path named).
set -e
fail() { echo "$*"; exit 1; }
here=$PWD
elsewhere=$(mktemp -d)
trap 'rm -rf "$elsewhere"' EXIT
cd "$elsewhere"
rec() { # DIR PATH...: record a run of PATH... into DIR
  local d=$1; shift
  "$ANANKE" run -c "$here/project/ananke.config.yaml" "$@" --record "$d" >"$d.log" 2>&1 ||
    fail "recording $d: $(cat "$d.log")"
}
rec "$elsewhere/b1" "$here/project"
rec "$elsewhere/n1" "$here/project"
"$ANANKE" compare b1 n1 -o p1 >p1.log 2>&1 || fail "compare: $(cat p1.log)"
! grep -rqF "$here" b1 n1 || fail "a recording names $here: $(grep -rlF "$here" b1 n1)"
jq -e '.quality_flags | .portable_paths == true and .path_violations_count == 0' p1/compare-report.json >/dev/null ||
  fail "inside: $(jq -c .quality_flags p1/compare-report.json)"
jq -e '.config.path == "ananke.config.yaml" and .selection.paths == ["."] and .tests[0].file == "tests/greet.test.yaml"' \
  n1/run.json >/dev/null || fail "run.json: $(jq -c '[.config, .selection, .tests]' n1/run.json)"
! grep -rqF "$here" p1 || fail "the pack names $here: $(grep -rlF "$here" p1)"
# a test file outside the project: its absolute path is stored, and flagged
rec "$elsewhere/b2" "$here/outside.test.yaml"
rec "$elsewhere/n2" "$here/outside.test.yaml"
"$ANANKE" compare b2 n2 -o p2 >p2.log 2>&1 || fail "compare: $(cat p2.log)"
jq -e --arg f "$here/outside.test.yaml" '.quality_flags | .portable_paths == false
       and .path_violations_count > 0
       and (.path_violations | index("new/results.json:tests[0].file=" + $f + " (absolute path)"))' \
  p2/compare-report.json >/dev/null || fail "outside: $(jq -c .quality_flags p2/compare-report.json)"
