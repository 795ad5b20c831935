#!/usr/bin/env bash
# Docs examples are tests: every fenced block in README.md and docs/ that is
# preceded by "<!-- file: PATH -->" must equal that file, and that file is
# exercised by the suite (examples/ runs in tests/examples.sh).
set -uo pipefail
export ANANKE_HISTORY=0 # no run history in the tree (docs/history.md)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for doc in README.md docs/*.md; do
  rm -f "$tmp"/block.*
  awk -v dir="$tmp" '
    /^<!-- file: .* -->$/ { path = $3; want = 1; next }
    want == 1 && /^```/ { inblock = 1; want = 0; n++; out = dir "/block." n;
                          print path > (dir "/path." n); printf "" > out; next }
    inblock && /^```$/ { inblock = 0; close(out); next }
    inblock { print >> out; next }
    { want = 0 }
  ' "$doc"
  for b in "$tmp"/block.*; do
    [ -e "$b" ] || continue
    path=$(cat "$tmp/path.${b##*.}")
    if [ -f "$path" ] && cmp -s "$b" "$path"; then
      pass=$((pass + 1)); echo "ok   $doc shows $path"
    else
      fail=$((fail + 1)); echo "FAIL $doc: its block for $path differs from the file"
      diff "$b" "$path" | head -n 10
    fi
  done
done
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
