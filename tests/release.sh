#!/usr/bin/env bash
# The self-contained tarball (make release, scripts/package/release.sh) run
# where the system's shared libraries are not: a root holding only glibc's
# libraries (libc, libm, the loader, ...; the libc6 package), bash for the
# demo's hook (and its libtinfo), the unpacked tarball in /opt/ananke and a
# copy of examples/. In a private mount namespace, chrooted into it:
#   - ld.so --list resolves every library of ananke and ananke-mock to
#     /opt/ananke/lib or to glibc, and the running mock maps no other file;
#   - ananke --version names the commit; the demo suite passes against the
#     tarball's ananke-mock, the failing example fails (exit 1);
#   - ananke comply finds its suites (acp, agui, mcp) in the tarball.
# Packed from build-release/ into build-release/test-dist/ (tests/package-lib.sh;
# never into dist/). Prints the tarball's
# size and the startup times (median of 21) that docs/install.md states.
# Ends with "release: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"
suite=release pass=0 fail=0
root=$tests_root
scratch=$(mktemp -d /tmp/ananke-release.XXXXXX)
mock=""
trap '[ -n "$mock" ] && kill "$mock" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT

# shellcheck source=package-lib.sh
. "$here/package-lib.sh"
package_dist "$B/test-dist"
tgz=$(ls "$B"/test-dist/ananke-*-linux-x64.tar.gz)
ver=$("$B/ananke" --version | awk '{print $2}')
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
check "the tarball is named ananke-$ver-linux-x64.tar.gz" test "$(basename "$tgz")" = "ananke-$ver-linux-x64.tar.gz"

# the root: glibc, bash, the tarball, the examples
R="$scratch/root"
mkdir -p "$R/lib/x86_64-linux-gnu" "$R/lib64" "$R/bin" "$R/opt" "$R/tmp" "$R/dev" "$R/proc"
glibc=$(dpkg -L libc6 | grep -E '^/lib(64|/x86_64-linux-gnu)/[^/]+\.so[.0-9]*$')
for f in $glibc; do cp -L "$f" "$R$f"; done
cp -L /bin/bash "$R/bin/bash"
for l in $(ldd /bin/bash | awk '$2 == "=>" {print $3}'); do
  [ -e "$R/lib/x86_64-linux-gnu/$(basename "$l")" ] || cp -L "$l" "$R/lib/x86_64-linux-gnu/"
done
tar -xzf "$tgz" -C "$R/opt" && mv "$R/opt/ananke-$ver-linux-x64" "$R/opt/ananke"
cp -r "$root/examples" "$R/proj"
extra=$(cd "$R" && find . -name '*.so*' ! -path './opt/ananke/lib/*' | sed 's|^\.||' | sort |
        grep -vxF -f <(printf '%s\n' $glibc) | grep -v '/libtinfo\.so\.')
check "the root's only libraries besides the tarball's are glibc's (and bash's libtinfo)" test -z "$extra"

if [ "$(id -u)" -eq 0 ]; then ns=(unshare -m --propagation private)
else ns=(unshare -r -m --propagation private); fi
cat >"$scratch/enter.sh" <<'ENTER'
# enter.sh ROOT DIR COMMAND...: COMMAND in DIR, chrooted into ROOT, with /dev and /proc
R=$1 dir=$2; shift 2
mount --rbind /dev "$R/dev" && mount --rbind /proc "$R/proc" || exit 125
exec env -i PATH=/opt/ananke/bin:/bin HOME=/tmp LC_ALL=C ${ANANKE_MOCK_URL:+ANANKE_MOCK_URL=$ANANKE_MOCK_URL} \
  "$(command -v chroot)" "$R" /bin/bash -c 'cd "$1" && shift && exec "$@"' _ "$dir" "$@"
ENTER
inroot() { "${ns[@]}" bash "$scratch/enter.sh" "$R" "$@"; }
check "the root works (bash runs in it)" inroot / /bin/bash -c 'echo in'

# ld.so --list: nothing outside /opt/ananke/lib but glibc
for b in ananke ananke-mock; do
  l=$(inroot / /lib64/ld-linux-x86-64.so.2 --list /opt/ananke/bin/$b 2>&1)
  bad_libs=$(awk '$2 == "=>" && $3 !~ "^/opt/ananke/(bin/\\.\\./)?lib/" {print}' <<<"$l" |
             grep -vE '^\s*(libc|libm|libresolv|libpthread|libdl|librt)\.so\.[0-9]+ => /lib/x86_64-linux-gnu/')
  check "ld.so --list $b: every library is the tarball's or glibc's${bad_libs:+ ($bad_libs)}" \
    bash -c '[ -z "$1" ] && ! grep -q "not found" <<<"$2" && grep -qE "=> /opt/ananke/(bin/\.\./)?lib/libjansson.so.4" <<<"$2"' _ "$bad_libs" "$l"
done

v=$(inroot / ananke --version 2>&1)
check "--version in the root names the commit ($v)" grep -qE "^ananke $ver \(commit $commit\)$" <<<"$v"

# not through inroot: $! must be the mock itself (unshare, bash, env and chroot exec)
"${ns[@]}" bash "$scratch/enter.sh" "$R" /proj ananke-mock agui --scenario mock/scenario.yaml \
  --port-file /tmp/mock.port >"$scratch/mock.log" 2>&1 &
mock=$!
for _ in $(seq 1 100); do [ -s "$R/tmp/mock.port" ] && break; sleep 0.05; done
check "the tarball's ananke-mock starts in the root" test -s "$R/tmp/mock.port"
maps=$(awk '$6 ~ /\.so/ {print $6}' "/proc/$mock/maps" 2>/dev/null | sort -u)
odd=$(grep -vE "^($R)?/opt/ananke/lib/|^($R)?/lib(64|/x86_64-linux-gnu)/(ld-linux-x86-64|libc|libm|libresolv|libpthread|libdl|librt)\.so" <<<"$maps")
check "the running mock maps only the tarball's libraries and glibc${odd:+ ($odd)}" \
  bash -c '[ -n "$1" ] && [ -z "$2" ] && grep -q /opt/ananke/lib/libmicrohttpd.so.12 <<<"$1"' _ "$maps" "$odd"
ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$R/tmp/mock.port" 2>/dev/null)/agent"; export ANANKE_MOCK_URL
out=$(inroot /proj ananke run suite/ -r junit:/tmp/junit.xml 2>&1); rc=$?
check "the demo suite passes in the root (exit $rc)" bash -c '[ "$1" -eq 0 ] || { tail -n 20 <<<"$2"; exit 1; }' _ "$rc" "$out"
check "... all 11 tests, JUnit written" bash -c 'grep -qF "11 passed, 0 failed, 0 errors (11 tests)" <<<"$1" && test -s "$2"' _ "$out" "$R/tmp/junit.xml"
out=$(inroot /proj ananke run failing/ 2>&1); rc=$?
check "the failing example fails in the root (exit $rc, want 1)" test "$rc" -eq 1

for p in acp agui mcp; do
  want=$(find "$root/compliance/$p" -name '*.jsont' | wc -l)
  n=$(inroot /tmp ananke comply --protocol "$p" --list-tests 2>&1 | grep -c ' - ')
  check "comply --protocol $p finds the tarball's $want tests (found $n)" test "$n" -eq "$want"
done

# the figures docs/install.md states
median() { sort -n | sed -n 11p; }
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000 )); }
P="$R/opt/ananke/bin"
tv=$(for _ in $(seq 21); do ms "$P/ananke" --version; done | median)
tval=$(cd "$R/proj" && for _ in $(seq 21); do ms "$P/ananke" validate suite/; done | median)
echo "info tarball $(( $(stat -c %s "$tgz") / 1024 )) KiB (needs glibc >= $(cat "$R/opt/ananke/share/ananke/glibc-min")), unpacked $(du -sk "$R/opt/ananke" | cut -f1) KiB" \
     "(bin $(du -sk "$P" | cut -f1), lib $(du -sk "$R/opt/ananke/lib" | cut -f1));" \
     "startup: --version ${tv} us, validate of the demo ${tval} us (median of 21)"
finish
