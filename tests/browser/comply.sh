# Sourced by tests/browser/run.sh: `ananke comply` pages in the browser. The
# ACP mock (one agent well-behaved, one with a fault and a name that is
# markup) and the MCP mock, each with -r json, joined by `comply --merge` into
# one page; check-comply.mjs loads it. Screenshot: out/comply.png.
# (no '=' in it: --agent NAME=COMMAND ends the name at the first one)
comply_hostile='pwn<script>alert(1)</script><b>bold</b>'
( cd "$root" &&
  timeout -k 5 120 "$B/ananke" comply --timeout-scale 0.3 -t required.initialize -t required.prompt.cancel \
    --agent mock="$B/ananke-mock acp" --agent "$comply_hostile=$B/ananke-mock acp --fault ignore-cancel" \
    -r json:"$out/comply-acp.json" >/dev/null 2>&1
  timeout -k 5 120 "$B/ananke" comply --protocol mcp --timeout-scale 0.3 --agent mock="$B/ananke-mock mcp" \
    --agent old="$B/ananke-mock mcp --version 1999-01-01" -r json:"$out/comply-mcp.json" >/dev/null 2>&1
  timeout -k 5 60 "$B/ananke" comply --merge "$out/comply-acp.json" "$out/comply-mcp.json" \
    -r html:"$out/comply.html" >/dev/null 2>&1 )
if [ -s "$out/comply.html" ]; then
  ok "ananke comply --merge wrote out/comply.html"
  timeout -k 5 180 node "$here/check-comply.mjs" "$out/comply.html" "$comply_hostile" "$out/comply.png" \
    >"$out/comply.check.log" 2>&1
  rc=$?
  sed "s/^/[comply] /" "$out/comply.check.log"
  n=$(grep -c '^ok ' "$out/comply.check.log"); pass=$((pass + n))
  n=$(grep -c '^FAIL ' "$out/comply.check.log"); fail=$((fail + n))
  if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/comply.check.log"; then
    bad "comply: check-comply.mjs exited $rc"
  fi
else
  bad "ananke comply --merge wrote out/comply.html"
fi
