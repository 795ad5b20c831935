#!/usr/bin/env bash
# The .deb (make deb: CPack's DEB generator over the install rules), from
# build-release/, packed into build-release/test-dist/ (tests/package-lib.sh;
# never into dist/):
#   - its control fields: name, version (the project's), architecture,
#     maintainer, description; Depends: names libc6, libcurl4, libyaml,
#     libpcre2-8, libjansson4, libmicrohttpd12 and libsqlite3-0, and is exactly what
#     scripts/package/dlopen-depends.sh computes for the libraries loaded with
#     dlopen (libcurl, libmicrohttpd) followed by what dpkg-shlibdeps computes
#     here from the package's own binaries (computed, not written by hand);
#   - apt-get resolves it on this Debian (a simulated install);
#   - unpacked with dpkg -x into a scratch root, the checks of
#     tests/install-checks.sh with the checkout hidden: the demo suite, comply
#     finding its installed suites, mandoc -T lint and man -l on every page,
#     pkg-config, the completions.
# Ends with "deb: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"
suite=deb pass=0 fail=0
root=$tests_root
scratch=$(mktemp -d /tmp/ananke-deb.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
for t in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$t" >/dev/null || broken "'$t' is not installed (scripts/setup.sh installs it)"
done
# shellcheck source=package-lib.sh
. "$here/package-lib.sh"
package_dist "$B/test-dist"
debs=("$B"/test-dist/*.deb)
ver=$("$B/ananke" --version | awk '{print $2}')
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
arch=$(dpkg --print-architecture)
deb=${debs[0]}
check "one package, ananke_${ver}-1_$arch.deb" test "${#debs[@]}:$(basename "$deb")" = "1:ananke_${ver}-1_$arch.deb"
field() { dpkg-deb -f "$deb" "$1"; }
check "Package: ananke" test "$(field Package)" = ananke
check "Version: $ver-1 (the project's)" test "$(field Version)" = "$ver-1"
check "Architecture: $arch" test "$(field Architecture)" = "$arch"
check "Maintainer, Description, Homepage, Section are set" \
  bash -c '[ -n "$(dpkg-deb -f "$1" Maintainer)" ] && [ -n "$(dpkg-deb -f "$1" Homepage)" ] &&
           [ "$(dpkg-deb -f "$1" Section)" = devel ] &&
           [ "$(dpkg-deb -f "$1" Description | wc -l)" -ge 3 ]' _ "$deb"
dep=$(field Depends)
echo "     Depends: $dep"
for p in libc6 libcurl4 libyaml-0-2 libpcre2-8-0 libjansson4 libmicrohttpd12 libsqlite3-0; do
  check "Depends: names $p" grep -qE "(^|, )$p( \(|,|$)" <<<"$dep"
done

# Depends: is dpkg-shlibdeps' own answer for the binaries in the package
x="$scratch/x"
mkdir -p "$x/root" && dpkg-deb -x "$deb" "$x/root"
mkdir -p "$x/debian"
printf 'Source: ananke\n\nPackage: ananke\nArchitecture: any\n' >"$x/debian/control"
computed=$(cd "$x" && dpkg-shlibdeps -O root/usr/bin/ananke root/usr/bin/ananke-mock 2>/dev/null |
           sed -n 's/^shlibs:Depends=//p')
dlopened=$(bash "$root/scripts/package/dlopen-depends.sh")
check "Depends: is what dlopen-depends.sh and dpkg-shlibdeps compute ($dlopened, $computed)" \
  test "$dlopened, $computed" = "$dep"
check "Depends: is not hard-coded in CMakeLists.txt" \
  bash -c '! grep -E "CPACK_DEBIAN_PACKAGE_DEPENDS.*(lib|\()" "$1"' _ "$root/CMakeLists.txt"
check "apt-get resolves it on this system (simulated install)" \
  bash -c 'apt-get install -s -q "$1" 2>&1 | grep -qE "^Inst ananke \($2"' _ "$deb" "$ver-1"
check "the package holds no build-tree path" bash -c '! grep -rlF -- "$1" "$2"/usr/bin "$2"/usr/share/ananke "$2"/usr/lib/pkgconfig' _ "$root" "$x/root"

# the unpacked package, the checkout hidden: tests/install-checks.sh
cp -r "$root/examples" "$scratch/proj"
counts=()
for p in acp agui mcp; do counts+=("$(find "$root/compliance/$p" -name '*.jsont' | wc -l)"); done
cp "$here/install-checks.sh" "$scratch/inner.sh"
if [ "$(id -u)" -eq 0 ]; then ns=(unshare -m --propagation private)
else ns=(unshare -r -m --propagation private); fi
out=$("${ns[@]}" bash "$scratch/inner.sh" "$root" "$scratch" "$x/root/usr" "$commit" "${counts[@]}" "the unpacked .deb" 2>&1)
echo "$out" | grep -v '^the unpacked .deb: '
line=$(tail -n1 <<<"$out")
np=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+') nf=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
if [ -n "$np" ] && [ -n "$nf" ]; then pass=$((pass + np)) fail=$((fail + nf)); else bad "the checks of the unpacked .deb did not finish"; fi
finish
