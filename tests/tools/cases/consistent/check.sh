python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tests"]}
assert t["consistent passes"]["status"] == "pass", t["consistent passes"]["findings"]
def one(name):
    x = t[name]
    assert x["status"] == "fail", x
    f = [f for f in x["findings"] if f["kind"] == "tools.consistent"] if "kind" in x["findings"][0] else x["findings"]
    return x["findings"], json.dumps(x["findings"])
f, s = one("consistent fails on a claimed call")
assert len(f) == 1 and 'call #2 get-sum({\\"a\\":40,\\"b\\":2}) reported by the agent' in s, s
assert 'no tool server received a call of \\"get-sum\\"' in s, s
f, s = one("consistent fails on an unreported call")
assert len(f) == 1 and 'everything received echo({\\"message\\":\\"secret\\"}); the agent did not report it' in s, s
f, s = one("consistent fails on changed arguments")
assert len(f) == 2, s
assert 'the tool servers received echo({\\"message\\":\\"what I did\\"})' in s, s
f, s = one("consistent inherited from the test fails")
assert len(f) == 1 and f[0]["turn"] == 2 and 'made up' in s, s
PY
