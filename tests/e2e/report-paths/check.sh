# Paths are relative to the project directory (project/, the config's),
# whatever directory ananke starts from; an absolute path appears only for a
# file outside the project. -r html:FILE.html writes that file; any other
# path is a directory with index.html.
set -e
fail() { echo "$*"; exit 1; }
here=$PWD
reports() { # DIR: every report file a run wrote there
  echo "$1/r.json" "$1/page/report.html" "$1/dir/index.html" "$1/j.xml" "$1/r.md" "$1/r.tap" "$1/r.jsonl"
}
[ -f "$OUT/page/report.html" ] || fail "no out/page/report.html"
[ -d "$OUT/page/report.html" ] && fail "report.html is a directory"
[ -f "$OUT/dir/index.html" ] || fail "no out/dir/index.html"
# started from the case directory: nothing says project/tests/
for f in $(reports "$OUT"); do
  [ -s "$f" ] || fail "$f is empty"
  ! grep -q 'project/tests/' "$f" || fail "$f names project/tests/"
done
jq -e '[.tests[].file] == ["tests/a.test.yaml","tests/b.test.yaml","tests/c.test.yaml"]
       and .config == "ananke.config.yaml"' "$OUT/r.json" >/dev/null || fail "r.json: $(jq -c '[.config, .tests[].file]' "$OUT/r.json")"
jq -e '.tests[1].findings[0].location == "tests/b.test.yaml:8:13"' "$OUT/r.json" >/dev/null ||
  fail "finding: $(jq -c '.tests[1].findings[0]' "$OUT/r.json")"
# started from another directory, with absolute paths: no absolute path anywhere
elsewhere=$(mktemp -d)
trap 'rm -rf "$elsewhere"' EXIT
mkdir -p "$elsewhere/o/page"
(cd "$elsewhere" && "$ANANKE" run -c "$here/project/ananke.config.yaml" "$here/project" \
  -r json:o/r.json -r html:o/page/report.html -r html:o/dir -r junit:o/j.xml -r markdown:o/r.md \
  -r tap:o/r.tap -r jsonl:o/r.jsonl >o/stdout 2>&1) && fail "exit 0"
for f in $(reports "$elsewhere/o") "$elsewhere/o/stdout"; do
  ! grep -qF "$here" "$f" || fail "$f holds $here: $(grep -F "$here" "$f" | head -3)"
done
grep -q '^FAIL  fails on purpose (.*)  tests/b.test.yaml$' "$elsewhere/o/stdout" || fail "console: $(cat "$elsewhere/o/stdout")"
grep -q '^  FAIL  fails on purpose  tests/b.test.yaml:8$' "$elsewhere/o/stdout" || fail "recap: $(cat "$elsewhere/o/stdout")"
# a test file outside the project keeps its absolute path (the only one)
(cd "$elsewhere" && "$ANANKE" run -c "$here/project/ananke.config.yaml" "$here/outside.test.yaml" \
  -r json:o/out.json >o/out.stdout 2>&1) && fail "outside: exit 0"
jq -e --arg f "$here/outside.test.yaml" '.tests[0].file == $f' "$elsewhere/o/out.json" >/dev/null ||
  fail "outside: $(jq -c '.tests[0].file' "$elsewhere/o/out.json")"
# the recap escapes what the agent says, as the console does
grep -q 'failed and errored tests:' "$OUT/stdout"
! grep -q $'\x1b' "$OUT/stdout"
grep -qF '    turn 1: Text must match /never said/: no match in "Found it \u001b[2J with an escape"' "$elsewhere/o/out.stdout" ||
  fail "recap of the outside test: $(cat "$elsewhere/o/out.stdout")"
! grep -q $'\x1b' "$elsewhere/o/out.stdout"
# GitHub annotations stay relative to the repository ($GITHUB_WORKSPACE)
(cd "$elsewhere" && GITHUB_ACTIONS=true GITHUB_WORKSPACE="$here" "$ANANKE" run \
  -c "$here/project/ananke.config.yaml" "$here/project" >o/gha.stdout 2>&1) && fail "gha: exit 0"
grep -q '^::error file=project/tests/b.test.yaml,line=8,col=13,title=FAIL fails on purpose::' "$elsewhere/o/gha.stdout" ||
  fail "gha: $(grep '^::' "$elsewhere/o/gha.stdout")"
