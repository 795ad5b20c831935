# Short options with their values attached, as getopt reads them (-j2,
# -rjunit:PATH, -oFILE, -cFILE), and --name=VALUE: the run takes each. A
# bad attached value is refused as a separate one is.
set -e
grep -q '<testcase name="passes, with a &quot;comma&quot;"' "$OUT/j.xml"
grep -q '^ok 1 - passes, with a "comma"' "$OUT/o.tap"
set +e; "$ANANKE" run . -j0 > "$OUT/bad" 2>&1; rc=$?; set -e
[ $rc = 2 ]
grep -q "^ananke: --parallel takes a whole number from 1 to 10000, not '0'" "$OUT/bad"
