# Sourced by tests/tools/coverage.sh: ananke-mock agents of every protocol
# that has scripted tool calls (agui, acp, openai, http, a2a; docs/mock.md
# "Calling MCP tools") call server-everything through ananke's proxy.
# A2A has no tool calls in its protocol: its own honest test
# (mockagents/a2a/honest.test.yaml) asserts the server's view and the
# result in the artifact, and there is no hides test for it.
# honest.test.yaml asserts the call with `source: server` and
# tools.consistent; hides.test.yaml (a call made with `report: false`) must
# fail tools.consistent naming the unreported call.
mdir="$here/mockagents"
for proto in agui acp openai http a2a; do
  pdir="$mdir/$proto"
  honest=../honest.test.yaml
  [ -f "$pdir/honest.test.yaml" ] && honest=honest.test.yaml
  (cd "$pdir" && AGENT_PORT=$(port) CASE_DIR="$mdir" ANANKE_MOCK_BIN="$build/ananke-mock" \
     timeout 120 "$build/ananke" run --no-history "$honest" -r json:"$out/mock-$proto.json") \
    >"$out/mock-$proto.out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && python3 - "$out/mock-$proto.json" <<'PY' >"$out/mock-$proto.check" 2>&1; then
import json, sys
d = json.load(open(sys.argv[1]))
sc = d["tests"][0]["transcript"]["turns"][0]["server_calls"]
assert [(c["server"], c["name"], c["arguments"]) for c in sc] == \
    [("everything", "echo", {"message": "through the proxy"})], sc
assert d["tool_coverage"]["everything"]["called"]["echo"]["calls"] == 1, d["tool_coverage"]
PY
    ok "ananke-mock $proto calls through the proxy"
  else
    bad "ananke-mock $proto calls through the proxy (exit $rc)"; tail -15 "$out/mock-$proto.out"; cat "$out/mock-$proto.check" 2>/dev/null
  fi
  [ "$proto" = openai ] && continue # a proposed call is always reported
  [ "$proto" = a2a ] && continue    # no tool calls in the protocol to hide from
  (cd "$pdir" && AGENT_PORT=$(port) CASE_DIR="$mdir" ANANKE_MOCK_BIN="$build/ananke-mock" \
     timeout 120 "$build/ananke" run --no-history ../hides.test.yaml) >"$out/mock-$proto-hides.out" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && grep -q 'everything received get-sum({"a":1,"b":2}); the agent did not report it' "$out/mock-$proto-hides.out"; then
    ok "ananke-mock $proto report: false fails tools.consistent"
  else
    bad "ananke-mock $proto report: false (exit $rc)"; tail -15 "$out/mock-$proto-hides.out"
  fi
done
