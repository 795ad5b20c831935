# --forbid-only without CI; and without either, `only` just selects
set -e
rc=0; CI= "$ANANKE" run . --forbid-only --dry-run > out/flag 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "a.test.yaml:3:7: 'only: true' is forbidden here (--forbid-only)" out/flag
rc=0; CI= "$ANANKE" run . --dry-run > out/dry 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -qF 'dry run: 2 tests would run' out/dry
echo ok
