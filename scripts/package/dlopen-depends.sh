#!/usr/bin/env bash
# The .deb's Depends: for the libraries ananke loads with dlopen on first use
# (src/lib/core/lazy.h: libcurl.so.4, libmicrohttpd.so.12). dpkg-shlibdeps
# computes Depends: from the programs' DT_NEEDED entries, which no longer
# name them; this computes theirs from the same data it reads: the package
# that holds each library here and the dependency that package's shlibs
# file declares for it ("libcurl 4 libcurl4 (>= 7.88.1)" gives
# "libcurl4 (>= 7.88.1)"). Prints them joined by ", " (CMakeLists.txt puts
# them in CPACK_DEBIAN_PACKAGE_DEPENDS, to which CPack appends
# dpkg-shlibdeps' answer); prints nothing where dpkg is not.
set -euo pipefail
command -v dpkg >/dev/null && command -v pkg-config >/dev/null || exit 0
deps=()
for row in "libcurl libcurl 4" "libmicrohttpd libmicrohttpd 12"; do
  read -r mod name soversion <<<"$row"
  path=$(pkg-config --variable=libdir "$mod")/$name.so.$soversion
  pkg=$(dpkg -S "$(realpath -m "$path")" 2>/dev/null || dpkg -S "$path" 2>/dev/null) || exit 0
  pkg=${pkg%%: *}
  shlibs=/var/lib/dpkg/info/$pkg.shlibs
  [ -f "$shlibs" ] || shlibs=/var/lib/dpkg/info/${pkg%%:*}.shlibs
  [ -f "$shlibs" ] || exit 0
  dep=$(awk -v n="$name" -v v="$soversion" '$1 == n && $2 == v { $1 = $2 = ""; sub(/^ +/, ""); print; exit }' "$shlibs")
  [ -n "$dep" ] || exit 0
  deps+=("$dep")
done
(IFS=,; echo "${deps[*]}" | sed 's/,/, /g')
