# A minimal ACP agent: writes session/new's params to $OUT/session-new.json,
# answers every prompt with end_turn.
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    meth, mid = m.get("method"), m.get("id")
    if meth == "initialize":
        r = {"protocolVersion": 1, "agentCapabilities": {"mcpCapabilities": {"http": True}}}
    elif meth == "session/new":
        with open(os.path.join(os.environ["OUT"], "session-new.json"), "w") as f:
            json.dump(m.get("params"), f)
        r = {"sessionId": "s1"}
    elif meth == "session/prompt":
        r = {"stopReason": "end_turn"}
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": r}) + "\n")
    sys.stdout.flush()
