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

# npm packages for tests that talk to a real peer (the official AG-UI encoder)
if [ "${ANANKE_SKIP_NPM:-0}" != 1 ] && [ -f tests/peers/package.json ]; then
  if [ ! -d tests/peers/node_modules ] || [ tests/peers/package.json -nt tests/peers/node_modules ]; then
    if command -v npm >/dev/null 2>&1; then
      echo "setup: installing npm packages in tests/peers"
      (cd tests/peers && npm install --no-audit --no-fund --loglevel=error) && touch tests/peers/node_modules
    else
      echo "setup: npm not found; the peer tests will be reported as not run" >&2
    fi
  fi
fi
