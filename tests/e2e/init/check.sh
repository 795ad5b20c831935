# ananke init: the starter project it writes passes against ananke-mock,
# with the one command its output tells a new user to type (`ananke run`:
# the config starts the mock itself).
set -euo pipefail
tmp=$(mktemp -d)
cleanup() {
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"

"$ANANKE" init > "$OUT/init.stdout" 2> "$OUT/init.stderr"
for f in ananke.config.yaml agent.mock.yaml hello.test.yaml; do
  [ -s "$f" ] || { echo "init did not write $f"; exit 1; }
  grep -qx "wrote $f" "$OUT/init.stdout"
done
# the output names one command; the config starts the mock itself
grep -qx '  ananke run' "$OUT/init.stdout"
! grep -q 'ananke-mock' "$OUT/init.stdout"
grep -qF 'endpoint: "http://127.0.0.1:8765/agent"' ananke.config.yaml
grep -qF 'cmd: [ananke-mock, agui, --scenario, agent.mock.yaml, --port, "8765"]' ananke.config.yaml
"$ANANKE" validate > "$OUT/validate" 2>&1

# `ananke run`, nothing else: ananke starts ananke-mock (the one beside it)
# and stops it. Should the machine hold port 8765 already, the starter's
# port is moved first (said so), which is the only step added.
if (exec 3<>/dev/tcp/127.0.0.1/8765) 2>/dev/null; then
  port=$("$MOCK" agui --scenario agent.mock.yaml --port 0 --port-file p >/dev/null 2>&1 & pid=$!; for _ in $(seq 1 200); do [ -s p ] && break; sleep 0.01; done; kill $pid; wait $pid 2>/dev/null; cat p)
  echo "port 8765 is busy here: the starter uses $port instead"
  sed -i "s/8765/$port/g" ananke.config.yaml
fi
rc=0
"$ANANKE" run > "$OUT/init-run" 2>&1 || rc=$?
cat "$OUT/init-run"
[ "$rc" -eq 0 ] || { echo "ananke run exited $rc"; cat .ananke/start.log; exit 1; }
grep -q '^PASS  hello weather' "$OUT/init-run"
grep -q '^1 passed, 0 failed, 0 errors (1 test)' "$OUT/init-run"
# the mock it started is gone
! pgrep -f -- "--scenario agent.mock.yaml --port ${port:-8765}\$" > /dev/null

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
