#!/usr/bin/env bash
# The action's first step: make `ananke` runnable by the next steps.
#   ANANKE_INSTALL  auto (an ananke on PATH, else build), path, or build
#   ANANKE_VERSION  only "source" for now: the .deb and npm packages are not
#                   published yet (issue 21); a release will add them here
#   GITHUB_ACTION_PATH  the action's checkout (the repository), built with cmake
# A build's directory is added to $GITHUB_PATH, so the later steps find it.
# The build installs only the Debian packages the build needs (not `make`'s
# scripts/setup.sh, which adds the test suite's chromium, valgrind, npm ...),
# and is a Release build without warnings as errors (a runner's newer compiler
# must not stop a user's job). The later steps need jq and curl.
set -euo pipefail
mode=${ANANKE_INSTALL:-auto}
version=${ANANKE_VERSION:-source}
src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ "$version" != source ]; then
  echo "ananke action: version '$version' is not available: no release packages are published yet; use version: source" >&2
  exit 2
fi
for t in jq curl; do
  command -v "$t" >/dev/null 2>&1 || { echo "ananke action: '$t' is needed and not installed" >&2; exit 2; }
done
case "$mode" in
  path|auto)
    if command -v ananke >/dev/null 2>&1; then
      echo "ananke action: using $(command -v ananke) ($(ananke --version 2>/dev/null | head -n1))"
      exit 0
    fi
    if [ "$mode" = path ]; then
      echo "ananke action: install 'path' but no ananke on PATH" >&2
      exit 2
    fi ;;
  build) ;;
  *) echo "ananke action: unknown install '$mode' (auto, path or build)" >&2; exit 2 ;;
esac
debs=(build-essential cmake pkg-config libcurl4-openssl-dev libyaml-dev libpcre2-dev
      libjansson-dev libmicrohttpd-dev)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "ananke action: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "ananke action: building $src"
cmake -S "$src" -B "$src/build-action" -DCMAKE_BUILD_TYPE=Release -DANANKE_WERROR=OFF >/dev/null
cmake --build "$src/build-action" -j"$(nproc)" --target ananke-cli ananke-mock
echo "$src/build-action" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
