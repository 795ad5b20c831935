python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tests"]}
assert t["source server passes"]["status"] == "pass", t["source server passes"]["findings"]
bad = t["source server fails on a claimed call"]
assert bad["status"] == "fail"
assert bad["transcript"]["turns"][0]["server_calls"] == []
f = bad["findings"]
assert len(f) == 1, f
s = json.dumps(f[0])
assert "on a tool server" in s and "claimed.test.yaml" in s, f[0]
PY
