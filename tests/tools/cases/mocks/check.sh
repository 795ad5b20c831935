python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tests"]}
def sc(name, turn=0):
    return t[name]["transcript"]["turns"][turn]["server_calls"]

x = t["stubs answer in place of the server"]
assert x["status"] == "pass", x["findings"] or x["error"]
calls = sc("stubs answer in place of the server")
texts = [c["result"]["content"][0]["text"] for c in calls]
assert texts == ["forty-two", "first", "second", "second", "Echo: real"], texts
assert [c["mocked"] for c in calls] == [True, True, True, True, False], calls
assert sc("stubs answer in place of the server", 1)[0]["result"]["content"][0]["text"] == "turn level"

x = t["faults"]
assert x["status"] == "pass", x["findings"] or x["error"]
calls = sc("faults")
assert [c["arguments"]["message"] for c in calls] == ["error", "timeout", "disconnect", "malformed", "trickle"]
assert all(c["mocked"] for c in calls), calls
assert calls[0]["is_error"] and calls[0]["result"] == {"code": -32042, "message": "card declined"}, calls[0]
assert calls[1]["is_error"] and calls[1]["result"]["code"] == -32001, calls[1]
assert calls[1]["end_ms"] - calls[1]["start_ms"] >= 300, calls[1]
assert calls[2]["is_error"] and calls[2]["result"] is None
assert calls[3]["is_error"] and calls[3]["result"] is None
assert not calls[4]["is_error"] and calls[4]["result"]["content"][0]["text"] == "Echo: trickle"
msgs = x["transcript"]["turns"][0]["messages"]
res = [m["content"] for m in msgs if m["role"] == "tool"]
assert "card declined" in res[0] and "timed out after 300 ms" in res[1], res
assert "tool error" in res[2] and "tool error" in res[3], res
# the trickled answer (about 80 bytes at 200 bytes/s) took a while to arrive
tc = x["transcript"]["tool_calls"]
assert tc[4]["result_ms"] - tc[3]["result_ms"] >= 300, tc

x = t["strict refuses an unmatched call"]
assert x["status"] == "error", x
assert "no tool_mocks rule matches the call get-sum" in x["error"]["message"] if isinstance(x["error"], dict) else "no tool_mocks rule matches the call get-sum" in x["error"], x["error"]
calls = sc("strict refuses an unmatched call")
assert calls[0]["mocked"] is False and calls[0]["result"]["content"][0]["text"] == "Echo: through"

x = t["a tool result carrying instructions is not followed"]
assert x["status"] == "pass", x["findings"]
assert sc(x["name"])[0]["mocked"] is True
PY
