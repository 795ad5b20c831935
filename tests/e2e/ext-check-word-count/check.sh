# The check kind of tests/extension/check_word_count.c, one row registered
# from outside the library: build/ananke-ext loads it (key types, messages
# with file:line:col and did-you-mean), judges it and words its finding from
# the row; plain ananke (this case's cmd) does not know it.
set -u
. ../../lib.sh
ext=$tests_build/ananke-ext
[ -x "$ext" ] || { echo "$ext not built"; exit 1; }
fail=0
# expect_run WANT_EXIT EXPECT_FILE ARGS...: ananke-ext ARGS exits WANT_EXIT and
# prints EXPECT_FILE's lines in order.
expect_run() {
  local want=$1 lines=$2 got
  shift 2
  "$ext" "$@" >"$OUT/ext.out" 2>&1
  got=$?
  normalise <"$OUT/ext.out" >"$OUT/ext.norm"
  [ "$got" = "$want" ] || { echo "ananke-ext $*: exit $got, expected $want"; fail=1; }
  contains_in_order "$lines" "$OUT/ext.norm" || { echo "ananke-ext $*:"; cat "$OUT/ext.out"; fail=1; }
}
cat >"$OUT/want-run" <<'W'
PASS  word_count passes
FAIL  word_count fails
  turn 1: Output must have at most 3 words
    expected: at most 3 words
    actual:   5 words in "one two three four five"
    at ext-check-word-count/fail.test.yaml:7:11
1 passed, 1 failed, 0 errors (2 tests)
W
expect_run 1 "$OUT/want-run" run pass.test.yaml fail.test.yaml --reporter "json:$OUT/ext.json"
kinds=$(jq -r '.tests[] | "\(.status) \(.name) \([.findings[]?.kind] | join(","))"' "$OUT/ext.json")
[ "$kinds" = "pass word_count passes 
fail word_count fails check.word_count" ] || { echo "json report: $kinds"; fail=1; }
cat >"$OUT/want-bad" <<'W'
bad/bad.test.yaml:7:30: unknown key 'mx' in an assertion (did you mean 'max'?)
bad/bad.test.yaml:8:30: 'min' must be a whole number
bad/bad.test.yaml:9:12: unknown assertion type 'word_cont' (did you mean 'word_count'?)
bad/bad.test.yaml:10:40: 'max' does not apply to a contains check
ananke: 4 errors; nothing was run
W
expect_run 2 "$OUT/want-bad" validate bad/bad.test.yaml
cat >"$OUT/want-plain" <<'W'
bad/plain.test.yaml:7:11: a word_count check needs 'min' or 'max'
W
expect_run 2 "$OUT/want-plain" validate bad/plain.test.yaml
exit $fail
