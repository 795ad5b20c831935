# --redact applies to server_calls (arguments and results) too
! grep -q "tok-12345" "$OUT/results.json" || { echo "the secret is in results.json"; exit 1; }
python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sc = d["tests"][0]["transcript"]["turns"][0]["server_calls"]
assert len(sc) == 1 and "tok-12345" not in json.dumps(sc), sc
PY
