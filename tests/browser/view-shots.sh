# Sourced by tests/browser/view.sh with the server up ($url, $out, $here):
# view-shots.mjs checks each page's key elements against
# view-shots.expect.json and captures it (docs/view.md's screenshots;
# UPDATE_SCREENSHOTS=1 writes them to docs/img/view-*.png).
shots_log="$out/view-shots.check.log"
timeout -k 5 180 node "$here/view-shots.mjs" "$url" "$out" >"$shots_log" 2>&1
shots_rc=$?
sed "s/^/[view-shots] /" "$shots_log"
n=$(grep -c '^ok ' "$shots_log"); pass=$((pass + n))
n=$(grep -c '^FAIL ' "$shots_log"); fail=$((fail + n))
if [ "$shots_rc" -ne 0 ] && ! grep -q '^FAIL ' "$shots_log"; then
  bad "view: view-shots.mjs exited $shots_rc"
fi
