#!/usr/bin/env bash
# make release: the self-contained tarball, dist/ananke-VERSION-linux-ARCH.tar.gz,
# from a Release build (default build-release/, built by `make release`).
#   bin/ananke, bin/ananke-mock     stripped, RPATH $ORIGIN/../lib
#   lib/                            every shared library they load that is not
#                                   part of the C library (glibc), copied from
#                                   the build machine, each with RPATH $ORIGIN
#   share/ananke/                   the JSON Schemas and the compliance suites
#   share/man, completions, share/doc/ananke (third-party/: the bundled
#                                   libraries' copyright files)
# The only runtime dependency left is glibc, of at least the version printed
# at the end (the newest GLIBC_x.y symbol version any file needs).
# docs/install.md says why bundled and not static.
# Usage: release.sh [BUILD_DIR [DIST_DIR]]; prints the tarball's path last.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(realpath -m "${1:-$root/build-release}")
dist=$(realpath -m "${2:-$root/dist}")
for t in patchelf ldd strip objdump; do
  command -v "$t" >/dev/null || { echo "release: '$t' is needed (scripts/setup.sh installs it)" >&2; exit 2; }
done
[ -x "$B/ananke" ] && [ -x "$B/ananke-mock" ] || { echo "release: no ananke in $B" >&2; exit 2; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$B/CMakeCache.txt")
case $(uname -m) in
  x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;;
esac
name=ananke-$version-linux-$arch
stage=$dist/$name
rm -rf "$stage" "$dist/$name.tar.gz"
mkdir -p "$dist"
cmake --install "$B" --prefix "$stage" >/dev/null
# a runtime, not a development kit: no headers, static library, pkg-config
rm -rf "${stage:?}/include" "${stage:?}/lib"
mkdir -p "$stage/lib" "$stage/share/doc/ananke/third-party"

# glibc's own libraries stay the system's (the loader and the C library must
# match: they are one package)
glibc='^(linux-vdso|linux-gate|ld-linux[^ ]*|libc|libm|libmvec|libpthread|libdl|librt|libresolv|libanl|libutil|libnsl|libnss_[a-z]+|libBrokenLocale|libc_malloc_debug|libthread_db)\.so(\.[0-9]+)*$'
bundle() { # FILE: copy the non-glibc libraries FILE loads into lib/
  ldd "$1" | while read -r so arrow path _; do
    [ "$arrow" = "=>" ] || continue
    grep -qE "$glibc" <<<"$so" && continue
    [ -f "$path" ] || { echo "release: $1 needs $so, not found" >&2; exit 1; }
    [ -e "$stage/lib/$so" ] && continue
    cp -L "$path" "$stage/lib/$so"
    chmod 0644 "$stage/lib/$so"
    licence "$path"
  done
}
licence() { # PATH: the library's licence, from its Debian package
  command -v dpkg >/dev/null || return 0
  local path=$1 pkg="" real q
  real=$(realpath "$path")
  for q in "$path" "$real" "${real#/usr}" "/usr${path#/usr}"; do
    pkg=$(dpkg -S "$q" 2>/dev/null | head -n1 | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  if [ -n "$pkg" ] && [ -f "/usr/share/doc/$pkg/copyright" ]; then
    cp "/usr/share/doc/$pkg/copyright" "$stage/share/doc/ananke/third-party/$pkg.copyright"
  fi
}
# libcurl and libmicrohttpd are loaded with dlopen on first use
# (src/lib/core/lazy.h), so ldd does not list them: bundled by soname, with
# what they load; dlopen finds them through the programs' RPATH
for so in libcurl.so.4 libmicrohttpd.so.12; do
  mod=libcurl; [ "$so" = libmicrohttpd.so.12 ] && mod=libmicrohttpd
  path=$(pkg-config --variable=libdir "$mod")/$so
  [ -f "$path" ] || { echo "release: $so (loaded on first use) not found at $path" >&2; exit 1; }
  cp -L "$path" "$stage/lib/$so"
  chmod 0644 "$stage/lib/$so"
  licence "$path"
  bundle "$stage/lib/$so"
done
for b in "$stage"/bin/*; do
  strip --strip-unneeded "$b"
  bundle "$b"
  # DT_RPATH (not RUNPATH): it applies to the libraries' own dependencies too
  patchelf --force-rpath --set-rpath '$ORIGIN/../lib' "$b"
done
for l in "$stage"/lib/*; do
  patchelf --force-rpath --set-rpath '$ORIGIN' "$l"
done
# every file's needs are met inside the tree or by glibc
for f in "$stage"/bin/* "$stage"/lib/*; do
  if ldd "$f" | grep -q 'not found'; then echo "release: $f: a library is missing" >&2; exit 1; fi
done
glibc_min=$(for f in "$stage"/bin/* "$stage"/lib/*; do objdump -T "$f"; done |
            grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | sort -u -V | tail -n1)
echo "${glibc_min#GLIBC_}" >"$stage/share/ananke/glibc-min"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
    -C "$dist" -czf "$dist/$name.tar.gz" "$name"
echo "release: $name: $(ls "$stage/lib" | wc -l) bundled libraries, needs glibc >= ${glibc_min#GLIBC_}," \
     "$(du -sk "$stage" | cut -f1) KiB unpacked, $(( $(stat -c %s "$dist/$name.tar.gz") / 1024 )) KiB packed"
echo "$dist/$name.tar.gz"
