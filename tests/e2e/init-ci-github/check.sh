# ananke init --ci github: the workflow it writes uses the action of this
# repository (action.yml) with inputs the action has; the YAML files it writes
# name their JSON Schema on their first line (yaml-language-server modeline),
# and the schemas they name are the ones in schema/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

"$ANANKE" init --ci github proj > "$OUT/ci.stdout" 2> "$OUT/ci.stderr"
grep -qx 'wrote proj/.github/workflows/ananke.yml' "$OUT/ci.stdout"
wf=proj/.github/workflows/ananke.yml
python3 - "$wf" "$root/action.yml" <<'PY'
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
action = yaml.safe_load(open(sys.argv[2]))
# PyYAML reads the key "on" as True
assert set(wf.get("on", wf.get(True))) == {"push", "pull_request"}, wf
assert wf["permissions"]["pull-requests"] == "write"
steps = wf["jobs"]["ananke"]["steps"]
uses = [s for s in steps if s.get("uses", "").startswith("ananke/ananke@")]
assert len(uses) == 1, steps
for k in uses[0].get("with", {}):
    assert k in action["inputs"], "the action has no input " + k
PY
head -n1 "$wf" | grep -qx '# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json'
# the modelines: first line, a schema of schema/
for f in ananke.config.yaml:ananke.config.schema.json hello.test.yaml:ananke.test.schema.json; do
  file=${f%%:*} schema=${f#*:}
  head -n1 "proj/$file" | grep -qx "# yaml-language-server: \$schema=https://raw.githubusercontent.com/ananke/ananke/main/schema/$schema"
  [ -s "$root/schema/$schema" ]
done
# the files still load
(cd proj && "$ANANKE" validate > "$OUT/ci-validate" 2>&1)

# without --ci there is no workflow; a second --ci init refuses, naming it
"$ANANKE" init plain > /dev/null
[ ! -e plain/.github ]
rc=0
"$ANANKE" init --ci github proj > /dev/null 2> "$OUT/ci2.stderr" || rc=$?
[ "$rc" -eq 2 ] && grep -qF "'proj/.github/workflows/ananke.yml' already exists" "$OUT/ci2.stderr"
# into an existing .github/ of the current directory
mkdir -p here/.github && cd here
"$ANANKE" init --ci github > /dev/null
[ -s .github/workflows/ananke.yml ]
cd ..
# bad values
rc=0; "$ANANKE" init --ci gitlab x 2> "$OUT/ci3.stderr" || rc=$?
[ "$rc" -eq 2 ] && grep -qF "unknown --ci 'gitlab' (github)" "$OUT/ci3.stderr" && [ ! -e x ]
rc=0; "$ANANKE" init --ci 2> "$OUT/ci4.stderr" || rc=$?
[ "$rc" -eq 2 ] && grep -qF -- "--ci needs a value: github" "$OUT/ci4.stderr"
echo "init-ci-github: ok"
