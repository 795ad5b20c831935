#!/usr/bin/env bash
# Tool coverage end to end (docs/tools.md "Tool coverage"): the scripted
# agent (tests/tools/agent.cjs) calls server-everything through the proxy;
# results.json's tool_coverage is checked against the tools/list the SDK
# client gets from the server itself, --min-tool-coverage fails and passes,
# the Markdown and HTML reports show the table, and `ananke compare` shows
# what changed between two recorded runs.
# Usage: tests/tools/coverage.sh   (ANANKE_BUILD: the build dir; run.sh calls it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=port.sh
. "$here/port.sh"
root=$(cd "$here/../.." && pwd)
build=${ANANKE_BUILD:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac
mods="$root/tests/mcp/node_modules"
if [ ! -d "$mods/@modelcontextprotocol/server-everything" ]; then
  echo "SKIP coverage: tests/mcp/node_modules lacks server-everything (make setup)"; exit 0
fi
export NODE_PATH="$mods"
export MCP_EVERYTHING="$mods/@modelcontextprotocol/server-everything/dist/index.js"
dir="$here/coverage"
out="$dir/out"
rm -rf "$out" && mkdir -p "$out"
fails=0
bad() { echo "FAIL coverage: $*"; fails=$((fails + 1)); }
ok() { echo "ok   coverage: $*"; }
port() { free_port; }
# run NAME WANT ARGS...: ananke run in the case dir, output in $out/NAME.out
run() {
  local name=$1 want=$2; shift 2
  (cd "$dir" && AGENT_PORT=$(port) timeout 120 "$build/ananke" run --no-history "$@") \
    >"$out/$name.out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    bad "$name: exit $got, expected $want"; sed 's/^/    /' "$out/$name.out" | tail -20; return 1
  fi
}

node "$here/list-tools.cjs" >"$out/listed" 2>"$out/listed.err" || { bad "list-tools.cjs"; cat "$out/listed.err"; }

# 1. the numbers, against the server's own tools/list
if run base 0 base/ --record "$out/base" -r json:"$out/base.json" -r markdown:"$out/base.md" \
     -r html:"$out/html"; then
  if python3 - "$out/base.json" "$out/listed" <<'PY' >"$out/base.check" 2>&1; then ok "numbers"; else bad "numbers"; cat "$out/base.check"; fi
import json, sys
d = json.load(open(sys.argv[1]))
listed = open(sys.argv[2]).read().split()
cov = d["tool_coverage"]
assert list(cov) == ["everything"], cov
e = cov["everything"]
assert list(e) == ["exposed", "called", "ratio"], list(e)
assert e["exposed"] == listed, (e["exposed"], listed)
assert len(listed) >= 10, listed
c = e["called"]
assert list(c) == ["echo", "get-sum"], c
assert c["echo"] == {"calls": 3, "tests": 2, "argument_keys": ["message"], "mocked": 0}, c["echo"]
assert c["get-sum"] == {"calls": 2, "tests": 1, "argument_keys": ["a", "b"], "mocked": 1}, c["get-sum"]
assert abs(e["ratio"] - 2 / len(listed)) < 1e-9, e["ratio"]
PY
  n=$(wc -l <"$out/listed")
  pct=$(python3 -c "print(round(200/$n))")
  grep -qx "Tool coverage: everything 2/$n tools ($pct%), 5 calls (1 mocked)" "$out/base.out" &&
    ok "console line" || { bad "console line"; tail -5 "$out/base.out"; }
  grep -q '^## Tool coverage' "$out/base.md" && grep -q "^| get-sum | 2 | 1 | 1 | a, b |" "$out/base.md" &&
    grep -q "^| get-tiny-image | 0 | 0 | 0 |  |" "$out/base.md" &&
    ok "markdown table" || { bad "markdown table"; grep -A20 'Tool coverage' "$out/base.md"; }
  grep -q '<h2>Tool coverage</h2>' "$out/html/index.html" &&
    grep -q '<td class="mono">get-sum</td><td>2</td><td>1</td><td>1</td><td class="mono">a, b</td>' "$out/html/index.html" &&
    ok "html table" || bad "html table"
fi

# merge: the shards' coverage joined (the same result twice: counts doubled)
if [ -s "$out/base.json" ]; then
  "$build/ananke" merge "$out/base.json" "$out/base.json" -r json:"$out/merged.json" >"$out/merge.out" 2>&1
  python3 - "$out/merged.json" <<'PY' >"$out/merge.check" 2>&1 && ok "merge joins coverage" || { bad "merge"; cat "$out/merge.check" "$out/merge.out"; }
import json, sys
e = json.load(open(sys.argv[1]))["tool_coverage"]["everything"]
assert e["called"]["echo"] == {"calls": 6, "tests": 4, "argument_keys": ["message"], "mocked": 0}, e
assert e["called"]["get-sum"]["mocked"] == 2 and len(e["exposed"]) >= 10, e
PY
fi

# 2. --min-tool-coverage: under it fails (exit 1, naming server, ratio and
# threshold), at or over it passes
if run min-fail 1 base/ --min-tool-coverage 0.5; then
  grep -q "ananke: tool server 'everything' had [0-9]*% of its tools called (ratio 0\.[0-9]*), under --min-tool-coverage 0.5" "$out/min-fail.out" &&
    ok "--min-tool-coverage fails" || { bad "--min-tool-coverage message"; tail -3 "$out/min-fail.out"; }
fi
# (no reporter: the console line still counts the calls)
run min-pass 0 base/ --min-tool-coverage 10% &&
  grep -q "^Tool coverage: everything 2/[0-9]* tools ([0-9]*%), 5 calls (1 mocked)$" "$out/min-pass.out" &&
  ok "--min-tool-coverage passes" || { bad "--min-tool-coverage 10%"; tail -3 "$out/min-pass.out"; }
run min-bad 2 base/ --min-tool-coverage 1.5 &&
  grep -q "min-tool-coverage takes a share from 0 to 1" "$out/min-bad.out" && ok "--min-tool-coverage 1.5 refused"

# 3. compare: get-tiny-image newly covered, get-sum no longer
if run new 0 new/ --record "$out/new"; then
  (cd "$dir" && "$build/ananke" compare "$out/base" "$out/new" -o "$out/compare") >"$out/compare.out" 2>&1 ||
    bad "compare exit $?"
  grep -qx "tool coverage: everything $pct% -> $pct% (+0 points); newly covered: get-tiny-image; no longer covered: get-sum" "$out/compare.out" &&
    ok "compare console" || { bad "compare console"; cat "$out/compare.out"; }
  python3 - "$out/compare/compare-report.json" <<'PY' >"$out/compare.check" 2>&1 && ok "compare-report.json" || { bad "compare-report.json"; cat "$out/compare.check"; }
import json, sys
t = json.load(open(sys.argv[1]))["tool_coverage"]["everything"]
assert t["newly_covered"] == ["get-tiny-image"] and t["no_longer_covered"] == ["get-sum"], t
assert t["ratio_delta"] == 0 and t["baseline_ratio"] == t["new_ratio"], t
PY
  if [ -d "$root/tests/schema/node_modules/ajv" ]; then
    (cd "$root/tests/schema" && node --input-type=module -e "
import Ajv from 'ajv'; import fs from 'node:fs';
const v = new Ajv({allErrors: true, strict: false}).compile(JSON.parse(fs.readFileSync('../../schema/compare-report.schema.json')));
if (!v(JSON.parse(fs.readFileSync(process.argv[1])))) { console.log(JSON.stringify(v.errors)); process.exit(1); }
" "$out/compare/compare-report.json") >"$out/schema.check" 2>&1 &&
      ok "compare-report.json against its schema" || { bad "compare-report.json schema"; cat "$out/schema.check"; }
  fi
  grep -q '<h2>Tool coverage</h2>' "$out/compare/report.html" && grep -q '>get-tiny-image<' "$out/compare/report.html" &&
    ok "compare report.html" || bad "compare report.html"
fi

source "$here/coverage_mock.sh"
[ "$fails" -eq 0 ]
