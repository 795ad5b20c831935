#!/usr/bin/env bash
# dist/SHA256SUMS: the checksums of the packages in DIST (the .deb, the
# tarball, the npm tarballs), by file name alone, as a release publishes them
# side by side; the action (scripts/action/install.sh) checks a download
# against it. Usage: sums.sh [DIST]
set -euo pipefail
dist=${1:-$(cd "$(dirname "$0")/../.." && pwd)/dist}
cd "$dist"
for f in *.deb *.tar.gz npm/*.tgz; do
  [ -f "$f" ] && (cd "$(dirname "$f")" && sha256sum "$(basename "$f")")
done >SHA256SUMS.tmp
mv SHA256SUMS.tmp SHA256SUMS
echo "$dist/SHA256SUMS"
