# Every mistake in target.start is a load error at its place (validate
# exits 2 and nothing starts).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp hello.test.yaml "$tmp/"
n=0
bad() { # START_YAML EXPECTED
  n=$((n + 1))
  { printf 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "http://127.0.0.1:9/agent"\n  agentId: a\n  start:\n'; printf '%s\n' "$1"; } > "$tmp/ananke.config.yaml"
  rc=0; (cd "$tmp" && "$ANANKE" validate) > "$OUT/bad$n.out" 2>&1 || rc=$?
  cat "$OUT/bad$n.out"
  [ "$rc" -eq 2 ] || { echo "case $n: exit $rc"; exit 1; }
  grep -qF -- "$2" "$OUT/bad$n.out" || { echo "case $n: no '$2'"; exit 1; }
}
bad '    cmd: [x]
    ready: {port: 1}
    reuse_exisitng: true' "ananke.config.yaml:9:5: unknown key 'reuse_exisitng'"
bad '    cmd: [x]
    ready: {port: 1, url: "http://127.0.0.1:1/"}' "ananke.config.yaml:8:12: 'ready' takes exactly one of url, port or log, not 2"
bad '    cmd: [x]
    ready: {port: 70000}' "ananke.config.yaml:8:19: 'port' must be from 1 to 65535, not 70000"
bad '    cmd: [x]' "ananke.config.yaml:7:5: missing required key 'ready'"
bad '    ready: {port: 1}' "missing required key 'cmd'"
bad '    cmd: {program: x}
    ready: {port: 1}' "ananke.config.yaml:7:10: 'cmd' must be a list (the program, then its arguments) or a program"
bad '    cmd: []
    ready: {port: 1}' "'cmd' needs a program"
bad '    cmd: [x]
    ready: {url: "ftp://h/"}' "'url' must be an http:// or https:// URL"
bad '    cmd: [x]
    ready: {log: "up"}
    reuse_existing: true' "'reuse_existing' needs ready.url or ready.port"
bad '    cmd: [x]
    ready: {port: 1}
    timeout_ms: 0' "'timeout_ms' must be at least 1"
bad '    cmd: [x]
    ready: {port: 1}
    env: {A: [1]}' "ananke.config.yaml:9:14: 'A' must be a string, not a list"
# a misspelt key alone: named, and no crash looking for the one it is not
bad '    cmd: [x]
    ready: {urlx: "http://127.0.0.1:1/"}' "ananke.config.yaml:8:13: unknown key 'urlx' in target.start.ready"
grep -qF "ananke.config.yaml:8:12: 'ready' takes one of url, port or log" "$OUT/bad$n.out" || { echo "case $n: no 'takes one of'"; exit 1; }
echo "start-bad-config: ok"
