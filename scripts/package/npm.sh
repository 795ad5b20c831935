#!/usr/bin/env bash
# make npm: the two npm packages, as esbuild and biome ship theirs, packed
# with `npm pack` into DIST/npm/:
#   ananke-VERSION.tgz            `ananke`: the launcher (bin/ananke.js,
#                                 bin/ananke-mock.js, lib/launch.js; no
#                                 install script), with the platform package as
#                                 an optional dependency of the same version
#   ananke-linux-x64-VERSION.tgz  `@ananke/linux-x64` (os: linux, cpu: x64,
#                                 libc: glibc): the self-contained release
#                                 tree of scripts/package/release.sh (bin/,
#                                 lib/ with the bundled libraries, share/ananke/
#                                 with the schemas and compliance suites)
# Needs DIST/ananke-VERSION-linux-x64/ (make release). Usage: npm.sh [DIST]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dist=$(realpath -m "${1:-$here/../../dist}")
command -v npm >/dev/null || { echo "npm: 'npm' is needed" >&2; exit 2; }
stage=$(find "$dist" -maxdepth 1 -type d -name 'ananke-*-linux-*' | sort | tail -n1)
[ -n "$stage" ] && [ -x "$stage/bin/ananke" ] || { echo "npm: no release tree in $dist (make release)" >&2; exit 2; }
base=$(basename "$stage")                # ananke-VERSION-linux-ARCH
platform=${base##*-linux-}               # x64
version=${base#ananke-}; version=${version%-linux-*}
out=$dist/npm
rm -rf "$out"
mkdir -p "$out/ananke" "$out/linux-$platform"

cp -r "$here/npm/ananke/." "$out/ananke/"
cat >"$out/ananke/package.json" <<JSON
{
  "name": "ananke",
  "version": "$version",
  "description": "Test runner for AI agents (AG-UI, ACP, MCP, A2A, HTTP, OpenAI): npx ananke run",
  "homepage": "https://github.com/ananke/ananke",
  "repository": { "type": "git", "url": "git+https://github.com/ananke/ananke.git" },
  "bin": { "ananke": "bin/ananke.js", "ananke-mock": "bin/ananke-mock.js" },
  "files": ["bin/", "lib/", "README.md"],
  "engines": { "node": ">=16" },
  "optionalDependencies": { "@ananke/linux-$platform": "$version" }
}
JSON

p="$out/linux-$platform"
cp -r "$stage/bin" "$stage/lib" "$p/"
mkdir -p "$p/share/ananke" "$p/share/doc"
cp -r "$stage/share/ananke/." "$p/share/ananke/"
cp -r "$stage/share/doc/ananke" "$p/share/doc/"
rm -rf "$p/share/doc/ananke/docs" # the docs are on the web; the licences stay
cat >"$p/README.md" <<EOF2
# @ananke/linux-$platform

The ananke $version binaries for Linux on $platform (glibc >= $(cat "$stage/share/ananke/glibc-min")),
with the shared libraries they need other than glibc in lib/ (their licences in
share/doc/ananke/third-party/). Install \`ananke\`, not this package: its launcher finds this one.
EOF2
cat >"$p/package.json" <<JSON
{
  "name": "@ananke/linux-$platform",
  "version": "$version",
  "description": "The Linux $platform binaries of ananke (install 'ananke', which uses this package)",
  "homepage": "https://github.com/ananke/ananke",
  "repository": { "type": "git", "url": "git+https://github.com/ananke/ananke.git" },
  "os": ["linux"],
  "cpu": ["$platform"],
  "libc": ["glibc"],
  "preferUnplugged": true,
  "files": ["bin/", "lib/", "share/", "README.md"]
}
JSON
for d in ananke "linux-$platform"; do
  (cd "$out/$d" && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"/*.tgz
