#!/usr/bin/env bash
# Installs what ananke needs to build and test, only what is missing.
# Debian packages through apt-get; npm packages for the peer tests under tests/peers.
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(build-essential cmake pkg-config libcurl4-openssl-dev libyaml-dev libpcre2-dev
      libjansson-dev libmicrohttpd-dev libcmocka-dev curl jq)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages for tests that talk to a real peer (the official AG-UI encoder).
# With a package-lock.json, `npm ci`: exactly the locked versions, and the lock
# is never rewritten. Reinstalled when package.json or the lock is newer than
# node_modules, or when no install completed (no node_modules/.package-lock.json).
if [ "${ANANKE_SKIP_NPM:-0}" != 1 ] && [ -f tests/peers/package.json ]; then
  p=tests/peers
  if [ ! -f $p/node_modules/.package-lock.json ] || [ $p/package.json -nt $p/node_modules ] ||
     { [ -f $p/package-lock.json ] && [ $p/package-lock.json -nt $p/node_modules ]; }; then
    if command -v npm >/dev/null 2>&1; then
      echo "setup: installing npm packages in $p"
      npm_cmd=install
      [ -f $p/package-lock.json ] && npm_cmd=ci
      if (cd $p && npm "$npm_cmd" --no-audit --no-fund --loglevel=error); then
        touch $p/node_modules
      else
        echo "setup: npm $npm_cmd failed in $p; the peer tests will fail" >&2
      fi
    else
      echo "setup: npm not found; the peer tests will fail (they need node and npm)" >&2
    fi
  fi
fi
