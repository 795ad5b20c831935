# Sourced by tests/browser/run.sh (its helpers and $out, $B, $root set):
# --- 4. `ananke view` ---------------------------------------------------------
# Three runs of tests/e2e/view/proj against ananke-mock (the third recorded)
# make a history; `ananke view --port 0` serves it on 127.0.0.1 and
# check-view.mjs browses it (the checks are listed at its top).
view_mock="" view_pid=""
vp="$out/view-proj"
rm -rf "$vp" "$out/view-rec" && cp -r "$root/tests/e2e/view/proj" "$vp"
if spawn_server "$out/view-mock.port" 0.05 "$out/view-mock.stdout" "$out/view-mock.stderr" \
     timeout -k 5 300 "$B/ananke-mock" agui --scenario "$root/tests/e2e/view/scenario.yaml" \
     --port-file "$out/view-mock.port"; then
  view_mock=$spawned_pid
  export ANANKE_MOCK_URL="http://127.0.0.1:$(tr -d '[:space:]' <"$out/view-mock.port")/agent"
  for i in 1 2 3; do
    rec=(); [ "$i" = 3 ] && rec=(--record ../view-rec)
    (cd "$vp" && ANANKE_HISTORY= timeout -k 5 120 "$B/ananke" run "${rec[@]}") >"$out/view-run$i.log" 2>&1
  done
  stop_pids "$view_mock"
  if spawn_server "$out/view.stdout" 0.05 "$out/view.stdout" "$out/view.stderr" \
       timeout -k 5 300 "$B/ananke" view --history "$vp/.ananke/history.sqlite" --port 0; then
    view_pid=$spawned_pid
    url=$(sed -n 's|^ananke view: \(http://[^ ]*\) .*|\1|p' "$out/view.stdout")
    ok "ananke view serves the history at $url"
    log="$out/view.check.log"
    timeout -k 5 180 node "$here/check-view.mjs" "$url" "$out" >"$log" 2>&1
    rc=$?
    sed "s/^/[view] /" "$log"
    n=$(grep -c '^ok ' "$log"); pass=$((pass + n))
    n=$(grep -c '^FAIL ' "$log"); fail=$((fail + n))
    if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
      bad "view: check-view.mjs exited $rc"
    fi
    # the screenshots of docs/view.md (UPDATE_SCREENSHOTS=1 writes docs/img/)
    . "$here/view-shots.sh"
  else
    bad "ananke view started (see out/view.stderr)"
    sed 's/^/    /' "$out/view.stderr"
  fi
  stop_pids "$view_pid"
else
  stop_pids "$spawned_pid"
  bad "mock agent for the view started on 127.0.0.1"
fi
