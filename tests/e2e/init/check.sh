# ananke init: the starter project it writes passes against ananke-mock,
# with the commands its output tells a new user to type.
set -euo pipefail
tmp=$(mktemp -d)
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"

"$ANANKE" init > "$OUT/init.stdout" 2> "$OUT/init.stderr"
for f in ananke.config.yaml agent.mock.yaml hello.test.yaml; do
  [ -s "$f" ] || { echo "init did not write $f"; exit 1; }
  grep -qx "wrote $f" "$OUT/init.stdout"
done
# the output names the two commands; the config points at that fixed port
grep -qF 'ananke-mock agui --scenario agent.mock.yaml --port 8765 &' "$OUT/init.stdout"
grep -qx '  ananke run' "$OUT/init.stdout"
grep -qF 'endpoint: "http://127.0.0.1:8765/agent"' ananke.config.yaml
"$ANANKE" validate > "$OUT/validate" 2>&1

# the suite may not own port 8765: run the mock on a free port instead
"$MOCK" agui --scenario agent.mock.yaml --port 0 --port-file port > "$OUT/init-mock.stdout" 2> "$OUT/init-mock.stderr" &
mock_pid=$!
for _ in $(seq 1 100); do [ -s port ] && break; sleep 0.05; done
[ -s port ] || { echo "mock did not start"; cat "$OUT/init-mock.stderr"; exit 1; }
sed -i "s#http://127.0.0.1:8765/agent#http://127.0.0.1:$(cat port)/agent#" ananke.config.yaml
grep -qF "127.0.0.1:$(cat port)/agent" ananke.config.yaml
rc=0
"$ANANKE" run > "$OUT/init-run" 2>&1 || rc=$?
cat "$OUT/init-run"
[ "$rc" -eq 0 ] || { echo "ananke run exited $rc"; exit 1; }
grep -q '^PASS  hello weather' "$OUT/init-run"
grep -q '^1 passed, 0 failed, 0 errors (1 test)' "$OUT/init-run"
kill "$mock_pid"; wait "$mock_pid" 2>/dev/null || true; mock_pid=""

# a second init refuses to overwrite, names every file, and changes nothing
cp ananke.config.yaml before
rc=0
"$ANANKE" init > "$OUT/init2.stdout" 2> "$OUT/init2.stderr" || rc=$?
cat "$OUT/init2.stderr"
[ "$rc" -eq 2 ] || { echo "second init exited $rc, expected 2"; exit 1; }
for f in ananke.config.yaml agent.mock.yaml hello.test.yaml; do
  grep -qF "'$f' already exists" "$OUT/init2.stderr"
done
cmp -s before ananke.config.yaml
# one existing file is enough to refuse, in a directory given as argument
mkdir sub && echo keep > sub/hello.test.yaml
rc=0
"$ANANKE" init sub > /dev/null 2> "$OUT/init3.stderr" || rc=$?
[ "$rc" -eq 2 ] && grep -qF "'sub/hello.test.yaml' already exists" "$OUT/init3.stderr"
[ ! -e sub/ananke.config.yaml ] && [ "$(cat sub/hello.test.yaml)" = keep ]
# --force overwrites
"$ANANKE" init --force sub > /dev/null
grep -q 'name: hello weather' sub/hello.test.yaml
# a directory that does not exist yet is created
"$ANANKE" init new/ > "$OUT/init4.stdout"
grep -qx '  cd new/' "$OUT/init4.stdout" && [ -s new/hello.test.yaml ]
echo "init: ok"
