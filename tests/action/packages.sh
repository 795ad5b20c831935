#!/usr/bin/env bash
# The action's install step (scripts/action/install.sh) from a release, no
# network: a fake release (file://) holding what `make deb release npm` write
# (the .deb, the self-contained tarball, the npm tarballs, SHA256SUMS), packed
# from build-release/ into build-release/test-dist/ (tests/package-lib.sh). For install: deb, release and npm, and auto with a version: the
# install puts ananke on $GITHUB_PATH, under $RUNNER_TEMP, never calls
# apt-get when the .deb's Depends: are installed, and the action's run step
# then passes the demo suite with that ananke (and its ananke-mock). A .deb
# whose dependency is missing: apt-get installs just that one. A tampered
# download, a version that is not there: exit 2.
# Ends with "action-packages: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
suite=action-packages pass=0 fail=0
need_jq
root=$tests_root
tmp=$(mktemp -d /tmp/ananke-action-pkg.XXXXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
# shellcheck source=../package-lib.sh
. "$here/../package-lib.sh"
package_dist "$B/test-dist"
d="$B/test-dist"
rel="$tmp/release"
mkdir -p "$rel" && cp "$d"/*.deb "$d"/*.tar.gz "$d"/npm/*.tgz "$d/SHA256SUMS" "$rel/"
ver=$("$B/ananke" --version | awk '{print $2}')
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
check "the fake release: .deb, tarball, two npm tarballs, each in SHA256SUMS" \
  bash -c 'cd "$1" && [ "$(ls | wc -l)" = 5 ] && [ "$(wc -l <SHA256SUMS)" = 4 ] && sha256sum -c --quiet SHA256SUMS' _ "$rel"

# apt-get and sudo that only log: the install must not need them here
mkdir -p "$tmp/shim"
printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$tmp" >"$tmp/shim/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/shim/sudo"
chmod +x "$tmp/shim/apt-get" "$tmp/shim/sudo"
sysdirs=$(dirname "$(command -v node)"):/usr/bin:/bin
# inst NAME MODE VERSION [URL]: the install step; its exit code in $tmp/NAME.rc
inst() {
  : >"$tmp/$1.path"; : >"$tmp/apt.log"; mkdir -p "$tmp/runner-$1"
  PATH="$tmp/shim:$sysdirs" GITHUB_PATH="$tmp/$1.path" RUNNER_TEMP="$tmp/runner-$1" ANANKE_INSTALL=$2 \
    ANANKE_VERSION=$3 ANANKE_RELEASE_URL=${4:-file://$rel} GITHUB_ACTION_PATH="$tmp/nowhere" \
    npm_config_cache="$tmp/npm-cache" npm_config_offline=true \
    bash "$root/scripts/action/install.sh" >"$tmp/$1.log" 2>&1
  echo $? >"$tmp/$1.rc"
}
# run_step NAME: the action's run step on the demo, with the installed ananke and its mock
run_step() {
  local bin; bin=$(cat "$tmp/$1.path")
  rm -rf "$tmp/proj" && cp -r "$root/examples" "$tmp/proj"
  rm -f "$tmp/mock.port"
  "$bin/ananke-mock" agui --scenario "$tmp/proj/mock/scenario.yaml" --port-file "$tmp/mock.port" >"$tmp/mock.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do [ -s "$tmp/mock.port" ] && break; sleep 0.05; done
  : >"$tmp/$1.summary"; : >"$tmp/$1.output"
  (cd "$tmp/proj" && PATH="$bin:$sysdirs" GITHUB_STEP_SUMMARY="$tmp/$1.summary" GITHUB_OUTPUT="$tmp/$1.output" \
     ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$tmp/mock.port")/agent" ANANKE_ARGS=suite/ \
     ANANKE_REPORT_DIR=ananke-report timeout -k 5 120 bash "$root/scripts/action/run.sh") >"$tmp/$1.run.log" 2>&1
  local rc=$?
  kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; pids=()
  [ "$rc" = 0 ] && grep -qx 'exit-code=0' "$tmp/$1.output" && grep -qx 'passed=11' "$tmp/$1.output" &&
    grep -q '^# ananke test report' "$tmp/$1.summary" && return 0
  echo "run step: exit $rc"; cat "$tmp/$1.output"; tail -n 20 "$tmp/$1.run.log"; return 1
}
installed_ok() { # NAME MODE UNDER: exit 0, one GITHUB_PATH line under RUNNER_TEMP, the commit, no apt-get
  local p; p=$(cat "$tmp/$1.path")
  [ "$(cat "$tmp/$1.rc")" = 0 ] && [ "$(wc -l <"$tmp/$1.path")" = 1 ] &&
    case "$p" in "$tmp/runner-$1/ananke/$3") ;; *) false ;; esac &&
    "$p/ananke" --version | grep -qE "^ananke $ver \(commit $commit\)$" &&
    grep -qF "($2)" "$tmp/$1.log" && [ ! -s "$tmp/apt.log" ] && return 0
  echo "exit $(cat "$tmp/$1.rc"), path '$p'"; "$p/ananke" --version; cat "$tmp/$1.log" "$tmp/apt.log"; return 1
}
for m in deb:root/usr/bin release:ananke-$ver-linux-x64/bin npm:npm/node_modules/.bin; do
  inst "${m%%:*}" "${m%%:*}" "$ver"
  check "install: ${m%%:*} from the release: ananke on GITHUB_PATH under RUNNER_TEMP, no apt-get" installed_ok "${m%%:*}" "${m%%:*}" "${m#*:}"
  check "install: ${m%%:*}: the run step passes the demo with it" run_step "${m%%:*}"
done
inst auto auto "$ver"
check "install: auto with a version and no ananke on PATH takes the .deb (dpkg is here)" installed_ok auto deb root/usr/bin

# a Depends: that is not installed: apt-get installs it (the shim logs it)
mkdir -p "$tmp/shim2" && cp "$tmp/shim/"* "$tmp/shim2/"
cat >"$tmp/shim2/dpkg-query" <<'SH'
#!/bin/sh
for a; do last=$a; done
[ "$last" = libyaml-0-2 ] && exit 1
exec /usr/bin/dpkg-query "$@"
SH
chmod +x "$tmp/shim2/dpkg-query"
: >"$tmp/apt.log"; : >"$tmp/dep.path"
PATH="$tmp/shim2:$sysdirs" GITHUB_PATH="$tmp/dep.path" RUNNER_TEMP="$tmp/runner-dep" ANANKE_INSTALL=deb \
  ANANKE_VERSION=$ver ANANKE_RELEASE_URL="file://$rel" bash "$root/scripts/action/install.sh" >"$tmp/dep.log" 2>&1
check "install: deb with libyaml-0-2 missing: apt-get installs it, and only it (exit $?)" \
  bash -c 'grep -qx "apt-get install -y -qq --no-install-recommends libyaml-0-2" "$1" && [ "$(grep -c " install " "$1")" = 1 ]' _ "$tmp/apt.log"

# a tampered download, a version that is not there
cp -r "$rel" "$tmp/bad" && printf 'x' >>"$tmp/bad/ananke-$ver-linux-x64.tar.gz"
inst tampered release "$ver" "file://$tmp/bad"
check "install: a tarball that does not match SHA256SUMS: exit 2, nothing on GITHUB_PATH" \
  bash -c '[ "$(cat "$1.rc")" = 2 ] && [ ! -s "$1.path" ] && grep -qF "does not match its SHA256SUMS" "$1.log"' _ "$tmp/tampered"
inst missing npm 9.9.9
check "install: a version the release does not have: exit 2" \
  bash -c '[ "$(cat "$1.rc")" = 2 ] && [ ! -s "$1.path" ] && grep -qF "cannot download" "$1.log"' _ "$tmp/missing"
finish
