#!/usr/bin/env bash
# The checks of an installed ananke (tests/install.sh: a DESTDIR install;
# tests/deb.sh: the .deb unpacked with dpkg -x), run in a private mount
# namespace by its caller, from a copy outside the checkout:
#   install-checks.sh ROOT SCRATCH PREFIX COMMIT NACP NAGUI NMCP [NAME]
# ROOT (the checkout) is hidden under an empty tmpfs first; PREFIX is the
# installed tree (its bin/, share/, lib/, include/); SCRATCH holds proj/ (a
# copy of examples/) and is the cwd. Ends with "NAME: N passed, N failed" (NAME: install).
set -uo pipefail
root=$1 scratch=$2 P=$3 commit=$4 nacp=$5 nagui=$6 nmcp=$7 name=${8:-install}
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
is() { local name=$1; shift; if "$@"; then ok "$name"; else ko "$name"; fi; }
# the checkout out of reach: an empty tmpfs over it in this namespace
mount -t tmpfs -o size=1m ananke-hidden "$root" || { ko "hide the checkout"; echo "install: $pass passed, $fail failed"; exit 1; }
is "the checkout is hidden" test ! -e "$root/CMakeLists.txt"
cd "$scratch" || exit 1
export PATH="$P/bin:/usr/bin:/bin" HOME="$scratch"
is "ananke is the installed one" test "$(command -v ananke)" = "$P/bin/ananke"

# --version
v=$(ananke --version)
is "--version names the commit ($v)" grep -qE "^ananke [0-9]+\.[0-9]+\.[0-9]+ \(commit $commit\)$" <<<"$v"

# the demo suite, its mock the installed ananke-mock
ananke-mock agui --scenario proj/mock/scenario.yaml --port-file mock.port >mock.log 2>&1 &
mock=$!
for _ in $(seq 1 100); do [ -s mock.port ] && break; sleep 0.05; done
export ANANKE_MOCK_URL="http://127.0.0.1:$(cat mock.port 2>/dev/null)/agent"
out=$(cd proj && ananke run suite/ -r junit:"$scratch/junit.xml" -r html:"$scratch/html" \
        -r json:"$scratch/results.json" 2>&1); rc=$?
is "the demo suite passes with the installed binaries" test "$rc" -eq 0
is "... all 11 tests" grep -qF "11 passed, 0 failed, 0 errors (11 tests)" <<<"$out"
[ "$rc" -eq 0 ] || { echo "$out" | tail -n 20; cat mock.log; }
is "... and its JUnit, HTML and JSON reports are written" test -s junit.xml -a -s html/index.html -a -s results.json
out=$(cd proj && ananke run failing/ 2>&1); rc=$?
is "the failing example fails (exit 1)" test "$rc" -eq 1
kill "$mock" 2>/dev/null; wait "$mock" 2>/dev/null

# comply finds the installed suites (cwd has no compliance/)
for p in acp:$nacp agui:$nagui mcp:$nmcp; do
  n=$(ananke comply --protocol "${p%%:*}" --list-tests 2>&1 | grep -c ' - ')
  is "comply --protocol ${p%%:*} finds its ${p#*:} installed tests (found $n)" test "$n" -eq "${p#*:}"
done

# ... and runs them: the required ACP tests against the installed mock
req=$(ananke comply --list-tests | awk '/^required\./ {printf " -t %s", $1}')
out=$(ananke comply -j 8 --timeout-scale 0.2 $req --agent mock="$P/bin/ananke-mock acp" 2>&1); rc=$?
is "comply runs the installed required ACP tests against the installed mock (exit $rc)" test "$rc" -eq 0
is "... every one of them" grep -qE "^comply: $(wc -w <<<"$req" | awk '{print $1 / 2}') passed, 0 failed" <<<"$out"
[ "$rc" -eq 0 ] || echo "$out" | tail -n 20
is "the suites' support programs stay executable" test -x "$P/share/ananke/compliance/acp/support/mcp-server.sh"

# man pages
pages=$(find "$P/share/man" -type f \( -name '*.1' -o -name '*.5' \) | sort)
is "three man pages installed" test "$(wc -l <<<"$pages")" -eq 3
ver=$(ananke --version | awk '{print $2}')
for m in $pages; do
  is "$(basename "$m")'s .TH names version $ver" grep -qE "^\.TH .* \"ananke $ver\"" "$m"
  is "mandoc -T lint $(basename "$m")" mandoc -T lint -W warning "$m"
  is "man -l $(basename "$m")" bash -c 'MANPAGER=cat MANWIDTH=80 man -l "$1" 2>/dev/null | grep -q "^NAME"' _ "$m"
done

# the man pages name every option the programs' --help name (roff writes - as \-)
inman() { # PAGE PROGRAM COMMAND...: the options missing from PAGE
  local page=$1 prog=$2 c o; shift 2
  for c in "$@"; do
    for o in $("$prog" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
      grep -qF -- "${o//-/\\-}" "$page" || printf ' %s:%s' "$c" "$o"
    done
  done
}
m=$(inman "$P/share/man/man1/ananke.1" ananke $(ananke --help | awk '/^  [a-z]/ {print $1}'))
is "ananke(1) names every option of every command${m:+ (missing:$m)}" test -z "$m"
m=$(inman "$P/share/man/man1/ananke-mock.1" ananke-mock $(ananke-mock --help | awk '/^  [a-z]/ {print $1}'))
is "ananke-mock(1) names every option of every protocol${m:+ (missing:$m)}" test -z "$m"

# pkg-config from the scratch root: compile and link against the install
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
flags=$(pkg-config --cflags --libs ananke 2>&1)
inc=$(grep -oE -- '-I[^ ]*' <<<"$flags" | head -n1)
is "pkg-config --cflags --libs ananke ($flags)" test "$(realpath -m "${inc#-I}")" = "$P/include"
cat >use.c <<'C'
#include <stdio.h>
#include <ananke/err.h>
int main(void)
{
    struct an_err e = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    puts(an_err_format(&e, buf, sizeof buf) ? "linked" : "linked");
    return 0;
}
C
# shellcheck disable=SC2086
is "a program builds and links with pkg-config's flags" bash -c 'cc -o use use.c $1 && ./use | grep -q linked' _ "$flags"

# completions
bc="$P/share/bash-completion/completions/ananke"
zc="$P/share/zsh/site-functions/_ananke"
fc="$P/share/fish/vendor_completions.d/ananke.fish"
comp() { # WORDS... : what bash completes for the last word
  bash -c 'source "$1"; shift; complete -p ananke >/dev/null || exit 1
           COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ananke; printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$@"
}
is "complete -p ananke after sourcing" bash -c 'source "$1"; complete -p ananke | grep -q _ananke' _ "$bc"
is "ananke ru<TAB> gives run" test "$(comp ananke ru)" = run
is "ananke run --repo<TAB> gives --reporter" test "$(comp ananke run --repo)" = --reporter
is "ananke comply --li<TAB> gives --list-tests" test "$(comp ananke comply --li)" = --list-tests
is "ananke run -r ju<TAB> gives junit:" test "$(comp ananke run -r ju)" = junit:
OPT_RE='(?<=^|[\[ |,])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?=[\],| =|]|$)'
for c in $(ananke --help | sed -n '/^commands:/,/^$/p' | awk '/^  [a-z]/ {print $1}'); do
  missing=""
  # an option is a token in an option's place (a usage bracket, the start
  # of a help line, after a comma), not one named in prose ("made with
  # 'ananke run --repeat auto'")
  for o in $(ananke "$c" --help | grep -oP -- "$OPT_RE" | grep -- '^--' | sort -u); do
    for f in "$bc" "$zc" "$fc"; do
      case $f in
        "$fc") grep -qE -- "from $c' -l ${o#--}( |$)" "$f" ;;
        *) grep -E -- "^ +$c\)" "$f" | grep -qE -- "[ '(]$o[ ')]" ;;
      esac || missing="$missing $(basename "$f"):$o"
    done
  done
  is "every option of 'ananke $c --help' is in the three completions${missing:+ (missing:$missing)}" test -z "$missing"
done
# ananke-mock: its protocols and each one's options
mbc="$P/share/bash-completion/completions/ananke-mock"
mfc="$P/share/fish/vendor_completions.d/ananke-mock.fish"
is "ananke-mock's bash completion is installed under its name" cmp -s "$bc" "$mbc"
mcomp() { bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ananke_mock
                   printf "%s\n" "${COMPREPLY[@]}"' _ "$mbc" "$@"; }
is "ananke-mock ag<TAB> gives agui" test "$(mcomp ananke-mock ag)" = agui
is "ananke-mock agui --scen<TAB> gives --scenario" test "$(mcomp ananke-mock agui --scen)" = --scenario
for p in $(ananke-mock --help | sed -n '/^protocols:/,/^$/p' | awk '/^  [a-z]/ {print $1}'); do
  missing=""
  for o in $(ananke-mock "$p" --help | grep -oP -- "$OPT_RE" | grep -- '^--' | sort -u); do
    for f in "$mbc" "$zc" "$mfc"; do
      case $f in
        "$mfc") grep -qE -- "from $p' -l ${o#--}( |$)" "$f" ;;
        *) grep -E -- "^ +$p\)" "$f" | grep -qE -- "[ '(]$o[ ')]" ;;
      esac || missing="$missing $(basename "$f"):$o"
    done
  done
  is "every option of 'ananke-mock $p --help' is in the three completions${missing:+ (missing:$missing)}" test -z "$missing"
done
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
