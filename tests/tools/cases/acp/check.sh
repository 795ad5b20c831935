python3 - "$OUT/session-new.json" <<'PY'
import json, sys, re
p = json.load(open(sys.argv[1]))
s = p["mcpServers"]
assert len(s) == 1, s
assert s[0]["type"] == "http" and s[0]["name"] == "everything" and s[0]["headers"] == [], s
# the test's own path (docs/tools.md "Parallel runs")
assert re.fullmatch(r"http://127\.0\.0\.1:[0-9]+/t/[0-9a-f]{32}/mcp", s[0]["url"]), s
PY
