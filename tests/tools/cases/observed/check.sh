# server_calls: what server-everything really received and answered
python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sc = d["tests"][0]["transcript"]["turns"][0]["server_calls"]
assert [c["name"] for c in sc] == ["echo", "get-sum"], sc
keys = ["server", "name", "arguments", "result", "is_error", "start_ms", "end_ms", "mocked"]
for c in sc:
    assert list(c) == keys, list(c)
    assert c["server"] == "everything" and c["mocked"] is False and c["is_error"] is False
    assert c["start_ms"] <= c["end_ms"]
assert sc[0]["arguments"] == {"message": "hello proxy"}
assert sc[0]["result"]["content"][0]["text"] == "Echo: hello proxy", sc[0]
assert sc[1]["arguments"] == {"a": 2, "b": 3}
assert "5" in sc[1]["result"]["content"][0]["text"]
PY
