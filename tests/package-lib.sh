# The packages the packaging tests share (tests/deb.sh, tests/release.sh,
# tests/npm.sh, tests/action/packages.sh); source it after tests/lib.sh.
#
#   package_dist DIR   builds build-release/ (configured again: --version
#                      names the commit) and packs into DIR, once: the
#                      self-contained tree and tarball, the npm tarballs
#                      (DIR/npm/), the .deb and SHA256SUMS, as make deb,
#                      release and npm write them into dist/
#
# DIR is build-release/test-dist (never dist/): packed again only when what
# the packages hold or how they are packed changed since (a stamp of the
# files' checksums), so the four tests pack once per build. Sets $B. Calls `broken`
# (tests/lib.sh) when the build or the packing fails.
# shellcheck shell=bash
# shellcheck disable=SC2154
B="$tests_root/build-release"

package_dist() {
  local dir=$1 log stamp
  log=$(mktemp)
  if ! { cmake -S "$tests_root" -B "$B" -DANANKE_WERROR=ON -DCMAKE_BUILD_TYPE=Release &&
         cmake --build "$B" -j2; } >"$log" 2>&1; then
    tail -n 30 "$log"; rm -f "$log"; broken "the Release build failed"
  fi
  # everything a package holds: the programs, the generated completions and
  # ananke.pc, the files the install rules copy, and how they are packed
  stamp=$( { find "$B/ananke" "$B/ananke-mock" "$B/completions" "$B/ananke.pc" \
                  "$tests_root"/{scripts/package,man,docs,schema,compliance,include} \
                  "$tests_root"/{CMakeLists.txt,README.md} -type f -print0 |
             sort -z | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)
  if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ]; then rm -f "$log"; return 0; fi
  rm -rf "$dir"
  if ! { bash "$tests_root/scripts/package/release.sh" "$B" "$dir" &&
         bash "$tests_root/scripts/package/npm.sh" "$dir" &&
         (cd "$B" && cpack -G DEB -B "$dir") && rm -rf "$dir/_CPack_Packages" &&
         bash "$tests_root/scripts/package/sums.sh" "$dir"; } >"$log" 2>&1; then
    tail -n 30 "$log"; rm -f "$log"; rm -rf "$dir"; broken "packing into $dir failed"
  fi
  echo "$stamp" >"$dir/stamp"
  rm -f "$log"
}
