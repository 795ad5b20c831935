# ananke-ext (ananke plus tests/extension/) knows `type: echo`: it runs the
# tests (one passes, one fails) and says where a bad key of the type is.
set -e
. ../../lib.sh
EXT=$tests_build/ananke-ext
set +e
"$EXT" run . --reporter json:out/ext.json >out/ext.stdout 2>&1; rc=$?
set -e
[ "$rc" = 1 ] || { echo "ananke-ext run: exit $rc, expected 1"; cat out/ext.stdout; exit 1; }
grep -qF "ananke: 2 tests against echo (in process)" out/ext.stdout
[ "$(jq -r '[.tests[] | "\(.status) \(.name)"] | sort | join(",")' out/ext.json)" = \
  "fail echo is not a chat model,pass echo answers reversed" ]
jq -e '.tests[] | select(.status == "fail") | .transcript.turns[0].text == "olleh"' out/ext.json >/dev/null
set +e
"$EXT" validate -c bad-mode/ananke.config.yaml . >out/bad-mode 2>&1; rc=$?
"$EXT" validate -c bad-key/ananke.config.yaml . >out/bad-key 2>&1; rc2=$?
set -e
[ "$rc" = 2 ] && [ "$rc2" = 2 ] || { echo "bad configs: exit $rc and $rc2, expected 2"; exit 1; }
grep -qF "bad-mode/ananke.config.yaml:4:9: unknown echo mode 'sideways' (one of: reverse, echo)" out/bad-mode
grep -qF "bad-key/ananke.config.yaml:4:3: unknown key 'mood'" out/bad-key
