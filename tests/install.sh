#!/usr/bin/env bash
# The installed ananke, with the source tree out of reach: a DESTDIR install
# of build-release/ (tests/release-build.sh builds it; built here if missing)
# into a scratch root, then (tests/install-checks.sh), in a private mount namespace where the checkout
# is hidden under an empty tmpfs and the cwd is outside it:
#   - the installed ananke and ananke-mock run the demo suite (examples/suite,
#     copied out) and the failing example fails;
#   - `ananke comply` finds its installed suites (acp, agui, mcp);
#   - `ananke --version` names the commit;
#   - every man page passes `mandoc -T lint` and renders with `man -l`;
#   - `pkg-config --cflags --libs ananke` from the scratch root builds and links
#     a program against the installed headers and libananke.a;
#   - the bash completion is registered and completes subcommands, options and
#     reporter names, and every option of every `ananke CMD --help` is in the
#     bash, zsh and fish completions.
# Ends with "install: N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
B="$root/build-release"
scratch=$(mktemp -d /tmp/ananke-install.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
case "$scratch" in "$root"/*) echo "install: the scratch directory is inside the checkout"; exit 1 ;; esac

if ! { cmake -S "$root" -B "$B" -DANANKE_WERROR=ON -DCMAKE_BUILD_TYPE=Release >"$scratch/build.log" 2>&1 &&
       cmake --build "$B" -j"$(nproc)" --target ananke ananke-cli ananke-mock completions \
         >>"$scratch/build.log" 2>&1; }; then
  tail -n 30 "$scratch/build.log"; echo "install: 0 passed, 1 failed"; exit 1
fi
dest="$scratch/root" prefix=/usr
if ! DESTDIR="$dest" cmake --install "$B" --prefix "$prefix" >"$scratch/install.log" 2>&1; then
  cat "$scratch/install.log"; echo "install: 0 passed, 1 failed"; exit 1
fi
cp -r "$root/examples" "$scratch/proj"
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
nacp=$(find "$root/compliance/acp" -name '*.jsont' | wc -l)
nagui=$(find "$root/compliance/agui" -name '*.jsont' | wc -l)
nmcp=$(find "$root/compliance/mcp" -name '*.jsont' | wc -l)

cp "$root/tests/install-checks.sh" "$scratch/inner.sh"

if [ "$(id -u)" -eq 0 ]; then ns=(unshare -m --propagation private)
else ns=(unshare -r -m --propagation private); fi
"${ns[@]}" bash "$scratch/inner.sh" "$root" "$scratch" "$dest$prefix" "$commit" "$nacp" "$nagui" "$nmcp"
