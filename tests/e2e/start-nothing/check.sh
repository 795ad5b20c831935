# validate, --dry-run and a run that selects nothing start nothing.
. ../start_lib.sh
port=$(free_port)
config "$port" "    cmd: [sh, -c, \"touch started; exec sleep 100$$\"]
    ready: {port: $port}
    timeout_ms: 300"
"$ANANKE" validate > "$OUT/validate.out" 2>&1
"$ANANKE" run --dry-run > "$OUT/dry.out" 2>&1
grep -q 'dry run: 1 test would run' "$OUT/dry.out"
rc=0; "$ANANKE" run --filter nomatch > "$OUT/none.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ]
[ ! -e started ] && [ ! -e .ananke/start.log ]
nothing_left
echo "start-nothing: ok"
