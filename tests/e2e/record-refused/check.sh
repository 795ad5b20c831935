# Where a recording cannot go: refused (exit 2) before anything runs, or a
# write that fails (exit 1) leaving nothing that looks complete.
set -e
[ "$(ls notempty)" = notes.txt ] # untouched
! grep -q . "$OUT/requests.jsonl" 2>/dev/null # nothing ran

run() { # run ARGS... -> $rc, output in $OUT/out.txt
  rc=0
  "$ANANKE" run "$@" >"$OUT/out.txt" 2>&1 || rc=$?
}

# a previous recording is never mixed with a new run
run a.test.yaml --record "$OUT/rec"
[ "$rc" = 0 ]
sum=$(cat "$OUT/rec/run.json" | sha256sum)
run a.test.yaml --record "$OUT/rec"
[ "$rc" = 2 ]
grep -q "ananke: '$OUT/rec' holds a previous recording (run [0-9a-f-]*, started 20.*Z): runs are never mixed, record into a new or empty directory" "$OUT/out.txt"
[ "$(cat "$OUT/rec/run.json" | sha256sum)" = "$sum" ]
# a file, a bad pattern, --dry-run: invocation errors
touch "$OUT/file"
run a.test.yaml --record "$OUT/file"
[ "$rc" = 2 ]
grep -q "cannot record into '$OUT/file': it exists and is not a directory" "$OUT/out.txt"
run a.test.yaml --record "$OUT/r2" --redact '(oops'
[ "$rc" = 2 ]
grep -q -- "--redact: invalid regex '(oops'" "$OUT/out.txt"
[ ! -e "$OUT/r2" ]
run a.test.yaml --redact '(oops'
[ "$rc" = 2 ]
grep -q -- "--redact: invalid regex '(oops'" "$OUT/out.txt"
# --redact alone redacts the run's own outputs (docs/security.md)
run a.test.yaml --redact secret
[ "$rc" = 0 ]
run a.test.yaml --record "$OUT/r3" --dry-run
[ "$rc" = 2 ]

# a directory that cannot be made: exit 1 and a message, nothing run
if [ "$(id -u)" = 0 ]; then ro=/sys/ananke-e2e-record; else
  mkdir -p "$OUT/ro"; chmod 555 "$OUT/ro"; ro=$OUT/ro/rec; fi
run a.test.yaml --record "$ro"
chmod 755 "$OUT/ro" 2>/dev/null || true
[ "$rc" = 1 ]
grep -q "ananke: cannot create the recording directory '$ro': " "$OUT/out.txt"
! grep -q 'PASS' "$OUT/out.txt"

# an empty directory that cannot be written: the same
frozen=$OUT/frozen
mkdir -p "$frozen"
thaw() { chattr -i "$frozen" 2>/dev/null || true; chmod 755 "$frozen"; }
trap thaw EXIT
freeze() { if [ "$(id -u)" = 0 ]; then chattr +i "$frozen"; else chmod 555 "$frozen"; fi; }
freeze
run a.test.yaml --record "$frozen"
thaw
[ "$rc" = 1 ]
grep -q "cannot write report '$frozen/run.json': " "$OUT/out.txt"
[ -z "$(ls -A "$frozen")" ]

# writing fails at the end of the run: exit 1, and run.json still says the
# recording is incomplete
w=$OUT/late
rc=0
"$ANANKE" run slow --record "$w" >"$OUT/late.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -s "$w/run.json" ] && break; sleep 0.05; done
frozen=$w
freeze
wait "$pid" || rc=$?
thaw
[ "$rc" = 1 ]
grep -q "ananke: cannot write the recording (it stays marked incomplete): " "$OUT/late.txt"
jq -e '.complete == false and .ended_at == null and .tests == []' "$w/run.json" >/dev/null
[ ! -e "$w/results.json" ]
rc=0; "$ANANKE" replay "$w" >"$OUT/late-replay.txt" 2>&1 || rc=$?
[ "$rc" = 2 ]
grep -q "is an incomplete recording: it has no results.json" "$OUT/late-replay.txt"

# a test's files cannot be written while results.json is being written a
# test at a time: the same, results.json is not left half written, nor is
# its temporary file
w=$OUT/midway
rc=0
"$ANANKE" run slow --record "$w" >"$OUT/midway.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -s "$w/run.json" ] && break; sleep 0.05; done
mkdir -p "$w/tests" && touch "$w/tests/after_the_slow_one" # the second test's directory
wait "$pid" || rc=$?
[ "$rc" = 1 ]
grep -q "ananke: cannot write the recording (it stays marked incomplete): " "$OUT/midway.txt"
jq -e '.complete == false' "$w/run.json" >/dev/null
[ -s "$w/tests/slow/result.json" ] # the first test's files were written
[ ! -e "$w/results.json" ]
[ -z "$(find "$w" -name '.*.tmp-*')" ]

# an interrupted run: what finished is recorded, marked incomplete
i=$OUT/interrupted
"$ANANKE" run slow --record "$i" >"$OUT/int.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -s "$i/run.json" ] && break; sleep 0.05; done
sleep 0.3
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ]
jq -e '.complete == false and (.ended_at | type) == "string" and .tests == [
  {"name": "slow", "id": null, "file": "record-refused/slow/slow.test.yaml", "slug": "slow", "status": "error"},
  {"name": "after the slow one", "id": null, "file": "record-refused/slow/z.test.yaml", "slug": null,
   "status": "not_run"}]' "$i/run.json" >/dev/null
[ "$(ls "$i/tests")" = slow ]
rc=0; "$ANANKE" replay "$i" slow/slow.test.yaml >"$OUT/int-replay.txt" 2>&1 || rc=$?
[ "$rc" = 1 ]
grep -q "ananke: warning: the recording is incomplete (its run was interrupted)" "$OUT/int-replay.txt"
grep -q "interrupted (Ctrl-C or SIGTERM): the run was stopped (as recorded)" "$OUT/int-replay.txt"
