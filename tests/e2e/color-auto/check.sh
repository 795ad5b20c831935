set -e
# stdout is a file here and NO_COLOR is set: no escape codes at all
! grep -q $'\x1b' "$OUT/stdout"
# on a terminal (script(1) gives one) colour is on ...
env -u NO_COLOR script -qec "$ANANKE run a.test.yaml" /dev/null > "$OUT/tty-color" 2>&1 || true
grep -qE $'\x1b\\[[0-9;]+m' "$OUT/tty-color"
# ... unless NO_COLOR is set
NO_COLOR=1 script -qec "$ANANKE run a.test.yaml" /dev/null > "$OUT/tty-nocolor" 2>&1 || true
grep -q 'no colour when not a terminal' "$OUT/tty-nocolor"
! grep -qE $'\x1b\\[[0-9;]+m' "$OUT/tty-nocolor"   # SGR colour codes
# a live progress line on a terminal ...
grep -qF '[0/1] 0 passed, 0 failed, 0 errors, 1 running' "$OUT/tty-color"
# ... and none in a pipe or a file: plain lines only
! grep -qF '[0/1]' "$OUT/stdout"
! grep -q $'\r' "$OUT/stdout"
