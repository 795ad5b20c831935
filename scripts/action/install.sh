#!/usr/bin/env bash
# The action's first step: make `ananke` (and `ananke-mock`) runnable by the
# next steps, by adding their directory to $GITHUB_PATH.
#   ANANKE_INSTALL  auto    an ananke on PATH; else build (version source), or
#                           the release's .deb (where dpkg is) or tarball
#                   path    only an ananke on PATH
#                   build   build the action's checkout (GITHUB_ACTION_PATH)
#                   deb     the release's .deb, unpacked (dpkg-deb -x) under
#                           $RUNNER_TEMP/ananke; its Depends: that are missing
#                           installed with apt-get
#                   release the release's self-contained tarball (needs glibc only)
#                   npm     the release's npm tarballs, npm-installed under
#                           $RUNNER_TEMP/ananke
#   ANANKE_VERSION  source (build the checkout) or a released version (0.1.0)
#   ANANKE_RELEASE_URL  where a release's files are ({version} is replaced),
#                   default https://github.com/ananke/ananke/releases/download/v{version};
#                   any URL curl reads (file:// in tests/action/packages.sh)
# A download is checked against the release's SHA256SUMS; a mismatch, a
# missing file or an ananke that does not run: exit 2.
# The build installs only the Debian packages the build needs (not `make`'s
# scripts/setup.sh, which adds the test suite's chromium, valgrind, npm ...),
# and is a Release build without warnings as errors (a runner's newer compiler
# must not stop a user's job). The later steps need jq and curl.
set -euo pipefail
mode=${ANANKE_INSTALL:-auto}
version=${ANANKE_VERSION:-source}
src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
url=${ANANKE_RELEASE_URL:-https://github.com/ananke/ananke/releases/download/v\{version\}}
url=${url//\{version\}/$version}
die() { echo "ananke action: $*" >&2; exit 2; }
for t in jq curl; do
  command -v "$t" >/dev/null 2>&1 || die "'$t' is needed and not installed"
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
apt_install() { # PACKAGE...
  echo "ananke action: installing $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

case "$mode" in
  path|auto)
    if command -v ananke >/dev/null 2>&1; then
      echo "ananke action: using $(command -v ananke) ($(ananke --version 2>/dev/null | head -n1))"
      exit 0
    fi
    [ "$mode" = path ] && die "install 'path' but no ananke on PATH"
    if [ "$version" = source ]; then mode=build
    elif command -v dpkg-deb >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then mode=deb
    else mode=release; fi ;;
  build) ;;
  deb|release|npm)
    [ "$version" != source ] || die "install '$mode' needs a released version (version: 0.1.0), not 'source'" ;;
  *) die "unknown install '$mode' (auto, path, build, deb, release or npm)" ;;
esac

# fetch NAME: the release's file NAME into $dl, checked against SHA256SUMS
fetch() {
  curl -fsSL --retry 2 -o "$dl/$1" "$url/$1" || die "cannot download '$url/$1'"
  [ -s "$dl/SHA256SUMS" ] || curl -fsSL --retry 2 -o "$dl/SHA256SUMS" "$url/SHA256SUMS" ||
    die "cannot download '$url/SHA256SUMS'"
  local want
  want=$(awk -v f="$1" '$2 == f || $2 == "*" f {print $1}' "$dl/SHA256SUMS")
  [ -n "$want" ] || die "'$1' is not in the release's SHA256SUMS"
  [ "$(sha256sum "$dl/$1" | cut -d' ' -f1)" = "$want" ] || die "'$1' does not match its SHA256SUMS checksum"
}
case $(uname -m) in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
if [ "$mode" != build ]; then
  if [ -n "${RUNNER_TEMP:-}" ]; then dest=$RUNNER_TEMP/ananke; rm -rf "$dest"; else dest=$(mktemp -d); fi
  mkdir -p "$dest/download"
  dl=$dest/download
fi

case "$mode" in
  build)
    debs=(build-essential cmake pkg-config libcurl4-openssl-dev libyaml-dev libpcre2-dev
          libjansson-dev libmicrohttpd-dev)
    missing=()
    for p in "${debs[@]}"; do installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
    echo "ananke action: building $src"
    cmake -S "$src" -B "$src/build-action" -DCMAKE_BUILD_TYPE=Release -DANANKE_WERROR=OFF >/dev/null
    cmake --build "$src/build-action" -j"$(nproc)" --target ananke-cli ananke-mock
    bin=$src/build-action ;;
  deb)
    f=ananke_${version}-1_$(dpkg --print-architecture).deb
    fetch "$f"
    # each Depends: entry ("a (>= 1) | b") is met when one of its packages is installed
    missing=()
    IFS=, read -ra deps <<<"$(dpkg-deb -f "$dl/$f" Depends)"
    for d in "${deps[@]}"; do
      met=0 first=""
      IFS='|' read -ra alts <<<"$d"
      for a in "${alts[@]}"; do
        p=$(awk '{print $1}' <<<"$a")
        [ -n "$first" ] || first=$p
        installed "$p" && { met=1; break; }
      done
      [ "$met" = 1 ] || missing+=("$first")
    done
    [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
    dpkg-deb -x "$dl/$f" "$dest/root"
    bin=$dest/root/usr/bin ;;
  release)
    f=ananke-$version-linux-$arch.tar.gz
    fetch "$f"
    tar -xzf "$dl/$f" -C "$dest"
    bin=$dest/ananke-$version-linux-$arch/bin ;;
  npm)
    command -v npm >/dev/null 2>&1 || die "install 'npm' needs npm (actions/setup-node)"
    fetch "ananke-$version.tgz"
    fetch "ananke-linux-$arch-$version.tgz"
    mkdir -p "$dest/npm"
    echo '{ "name": "ananke-action", "version": "1.0.0", "private": true }' >"$dest/npm/package.json"
    (cd "$dest/npm" && npm install --no-audit --no-fund --loglevel=error \
       "$dl/ananke-$version.tgz" "$dl/ananke-linux-$arch-$version.tgz") || die "npm install failed"
    bin=$dest/npm/node_modules/.bin ;;
esac
v=$("$bin/ananke" --version 2>&1) || die "the installed ananke does not run: $v"
echo "ananke action: installed $v in $bin ($mode)"
echo "$bin" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
