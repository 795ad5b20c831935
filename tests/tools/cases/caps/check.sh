python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
x = d["tests"][0]
sc = x["transcript"]["turns"][0]["server_calls"]
assert sc[0]["name"] == "trigger-long-running-operation" and sc[0]["is_error"], sc
assert sc[0]["result"]["code"] == -32001 and "tool_servers timeout_ms" in sc[0]["result"]["message"], sc[0]
assert sc[0]["end_ms"] - sc[0]["start_ms"] < 1500, sc[0]
tool = [m["content"] for m in x["transcript"]["turns"][0]["messages"] if m["role"] == "tool"]
assert "tool_servers timeout_ms" in tool[0], tool
assert "tool_servers max_body_bytes" in tool[1], tool
assert len(sc) == 1, sc   # the oversize request never reached the server
PY
