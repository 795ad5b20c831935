#!/usr/bin/env bash
# The npm packages (make npm, scripts/package/npm.sh), packed from the release
# tree of build-release/ into build-release/test-dist/npm/ (tests/package-lib.sh;
# never into dist/):
#   - the two tarballs' package.json: `ananke` (bin, the platform package as
#     an optional dependency of its own version) and `@ananke/linux-x64`
#     (os, cpu, libc; the binaries, their libraries, the compliance suites);
#   - `npm install ./ananke-*.tgz` into a fresh project, offline, with an
#     empty cache and a registry that does not answer;
#   - through the launcher: `npx ananke --version`; `npx ananke-mock` serves
#     the demo and `npx ananke run` passes it; the failing example exits 1;
#     `npx ananke comply` finds its suites in the platform package; SIGTERM to
#     the launcher reaches the binary; a binary killed by a signal kills the
#     launcher with it; without the platform package, a message and exit 2.
# Ends with "npm: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"
suite=npm pass=0 fail=0
need_jq
root=$tests_root
scratch=$(mktemp -d /tmp/ananke-npm.XXXXXX)
pids=()
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null; }
trap 'for p in "${pids[@]}"; do kill_tree "$p"; done; wait 2>/dev/null; rm -rf "$scratch"' EXIT
command -v npm >/dev/null && command -v node >/dev/null || broken "node and npm are needed"
# shellcheck source=package-lib.sh
. "$here/package-lib.sh"
package_dist "$B/test-dist"
ver=$("$B/ananke" --version | awk '{print $2}')
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
launcher="$B/test-dist/npm/ananke-$ver.tgz"
platform="$B/test-dist/npm/ananke-linux-x64-$ver.tgz"
check "npm pack wrote ananke-$ver.tgz and ananke-linux-x64-$ver.tgz" test -s "$launcher" -a -s "$platform"
tar -xOzf "$launcher" package/package.json >"$scratch/launcher.json"
tar -xOzf "$platform" package/package.json >"$scratch/platform.json"
check "ananke: bin ananke and ananke-mock, @ananke/linux-x64@$ver optional, no install script" \
  jq_true "$scratch/launcher.json" \
  '.name == "ananke" and .version == $v and .bin.ananke == "bin/ananke.js" and .bin["ananke-mock"] == "bin/ananke-mock.js"
   and .optionalDependencies["@ananke/linux-x64"] == $v and (.scripts // {} | has("postinstall") | not)' --arg v "$ver"
check "@ananke/linux-x64: os linux, cpu x64, libc glibc" \
  jq_true "$scratch/platform.json" \
  '.name == "@ananke/linux-x64" and .version == $v and .os == ["linux"] and .cpu == ["x64"] and .libc == ["glibc"]' --arg v "$ver"
check "@ananke/linux-x64 holds the binaries, their libraries and the compliance suites" \
  bash -c 'l=$(tar -tzf "$1"); for f in bin/ananke bin/ananke-mock lib/libcurl.so.4 lib/libmicrohttpd.so.12 \
             share/ananke/compliance/acp share/ananke/schema; do grep -q "^package/$f" <<<"$l" || { echo "no $f"; exit 1; }; done' _ "$platform"

# a fresh project, offline: no cache, a registry that does not answer
proj="$scratch/proj"
cp -r "$root/examples" "$proj"
cp "$launcher" "$platform" "$proj/"
echo '{ "name": "ananke-npm-test", "version": "1.0.0", "private": true }' >"$proj/package.json"
export npm_config_cache="$scratch/npm-cache" npm_config_registry=http://127.0.0.1:9/ npm_config_offline=true \
       npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# shellcheck disable=SC2035
check "npm install ./*.tgz into a fresh project (offline)" \
  bash -c 'cd "$1" && npm install --loglevel=error ./*.tgz' _ "$proj"
check "... one copy of the platform package, at the top" \
  bash -c 'test -x "$1/node_modules/@ananke/linux-x64/bin/ananke" && test ! -e "$1/node_modules/ananke/node_modules"' _ "$proj"
check "... its binaries and support scripts keep their executable bits" \
  test -x "$proj/node_modules/@ananke/linux-x64/bin/ananke-mock" -a \
       -x "$proj/node_modules/@ananke/linux-x64/share/ananke/compliance/acp/support/mcp-server.sh"

cd "$proj" || broken "no $proj"
v=$(npx ananke --version 2>&1)
check "npx ananke --version names the commit ($v)" grep -qE "^ananke $ver \(commit $commit\)$" <<<"$v"
npx ananke-mock agui --scenario mock/scenario.yaml --port-file mock.port >mock.log 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do [ -s mock.port ] && break; sleep 0.05; done
check "npx ananke-mock serves the demo's scenario" test -s mock.port
ANANKE_MOCK_URL="http://127.0.0.1:$(cat mock.port 2>/dev/null)/agent"; export ANANKE_MOCK_URL
out=$(npx ananke run suite/ 2>&1); rc=$?
check "npx ananke run passes the demo suite (exit $rc)" \
  bash -c '[ "$1" -eq 0 ] && grep -qF "11 passed, 0 failed, 0 errors (11 tests)" <<<"$2" || { tail -n 20 <<<"$2"; exit 1; }' _ "$rc" "$out"
out=$(npx ananke run failing/ 2>&1); rc=$?
check "npx ananke run of the failing example exits 1 through the launcher (exit $rc)" test "$rc" -eq 1
for p in acp agui mcp; do
  want=$(find "$root/compliance/$p" -name '*.jsont' | wc -l)
  n=$(cd "$scratch" && "$proj/node_modules/.bin/ananke" comply --protocol "$p" --list-tests 2>&1 | grep -c ' - ')
  check "ananke comply --protocol $p finds the platform package's $want tests (found $n)" test "$n" -eq "$want"
done
# npx starts the launcher, which starts the binary: SIGTERM to npx alone left
# both running (an ananke-mock per CI run, found after the fact)
for p in "${pids[@]}"; do kill_tree "$p"; done
wait "${pids[@]}" 2>/dev/null; pids=()
for _ in $(seq 1 100); do pgrep -f -- "port-file mock[.]port" >/dev/null || break; sleep 0.02; done
check "npx ananke-mock: nothing of it left running" bash -c '! pgrep -f -- "port-file mock[.]port" >/dev/null'

# signals, through the launcher itself (node_modules/.bin/ananke-mock)
sig_run() { # SIGNAL TARGET(launcher|binary): the launcher's exit status
  rm -f "$scratch/s.port"
  node_modules/.bin/ananke-mock agui --scenario mock/scenario.yaml --port-file "$scratch/s.port" >/dev/null 2>&1 &
  local l=$! b
  for _ in $(seq 1 100); do [ -s "$scratch/s.port" ] && break; sleep 0.05; done
  b=$(pgrep -P "$l" -x ananke-mock)
  if [ "$2" = launcher ]; then kill -"$1" "$l"; else kill -"$1" "$b"; fi
  wait "$l"; echo "$? $b"
}
read -r rc b < <(sig_run TERM launcher)
check "SIGTERM to the launcher stops the binary, which exits cleanly (exit $rc)" \
  bash -c '[ "$1" -eq 0 ] && [ -n "$2" ] && ! kill -0 "$2" 2>/dev/null' _ "$rc" "$b"
read -r rc b < <(sig_run KILL binary)
check "the binary killed by SIGKILL: the launcher dies by SIGKILL too (status $rc)" test "$rc" -eq 137

# without the platform package: a message naming it, exit 2
mkdir -p "$scratch/bare" && cp "$launcher" "$scratch/bare/"
echo '{ "name": "bare", "version": "1.0.0", "private": true }' >"$scratch/bare/package.json"
(cd "$scratch/bare" && npm install --loglevel=error --omit=optional "./ananke-$ver.tgz") >/dev/null 2>&1
out=$(cd "$scratch/bare" && npx ananke --version 2>&1); rc=$?
check "without @ananke/linux-x64: exit 2 and a message naming it (exit $rc)" \
  bash -c '[ "$1" -eq 2 ] && grep -qF "'"'"'@ananke/linux-x64'"'"' is not installed" <<<"$2" || { echo "$2"; exit 1; }' _ "$rc" "$out"
finish
