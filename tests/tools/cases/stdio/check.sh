python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
x = d["tests"][0]
assert x["status"] == "pass", x["findings"] or x["error"]
sc = x["transcript"]["turns"][0]["server_calls"]
assert [c["name"] for c in sc] == ["echo", "get-sum"], sc
PY
