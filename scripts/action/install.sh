#!/usr/bin/env bash
# The action's first step: make `ananke` runnable by the next steps.
#   ANANKE_INSTALL  auto (an ananke on PATH, else build), path, or build
#   ANANKE_VERSION  only "source" for now: the .deb and npm packages are not
#                   published yet (issue 21); a release will add them here
#   GITHUB_ACTION_PATH  the action's checkout (the repository), built with make
# A build's directory is added to $GITHUB_PATH, so the later steps find it.
set -euo pipefail
mode=${ANANKE_INSTALL:-auto}
version=${ANANKE_VERSION:-source}
src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ "$version" != source ]; then
  echo "ananke action: version '$version' is not available: no release packages are published yet; use version: source" >&2
  exit 2
fi
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
echo "ananke action: building $src with make"
make -C "$src" build
echo "$src/build" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
