#!/usr/bin/env bash
# The lint's own test: every rule of tests/lint.sh must be able to fail.
# A clean tree passes; then, one at a time, a file that breaks one rule is
# added and the lint must fail naming that file and rule; the boundaries
# (a 120-line function, banned names in comments, a known exception) pass.
# Ends with "lint-self: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lint="$here/../lint.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# a clean tree: layers, a function of exactly 120 lines, banned names and
# Linux calls only in comments and strings
clean() {
  rm -rf "$tmp/t"
  mkdir -p "$tmp/t/src/lib/core" "$tmp/t/src/lib/run" "$tmp/t/include/ananke"
  printf 'all: build\nsetup:\n\tbash scripts/setup.sh\nbuild:\n\tcmake --build build\n' \
    >"$tmp/t/Makefile"
  cat >"$tmp/t/include/ananke/err.h" <<'C'
/* no sprintf( here: a comment */
int an_x(void);
C
  cat >"$tmp/t/src/lib/core/ok.c" <<'C'
#include "ananke/err.h"
#include "core/ok.h"
#include <stdio.h>

/* strcpy(a, b) and pipe2(p, 0) in a comment are not calls */
int ok(char *b, unsigned n) // atoi( in a line comment
{
    return snprintf(b, n, "%s", "strcat( in a string; O_PATH too");
}
C
  {
    echo '#include "core/ok.h"'
    echo 'int at_limit(int x)'
    echo '{'
    for i in $(seq 1 119); do echo "    x += $i;"; done
    echo '    return x;'
    echo '}'
  } >"$tmp/t/src/lib/run/limit.c"
}

# NAME FILE CONTENT EXPECTED-MESSAGE: the clean tree plus FILE must fail
# with EXPECTED-MESSAGE in the output
must_fail() {
  local name=$1 file=$2 content=$3 want=$4 out
  clean
  mkdir -p "$(dirname "$tmp/t/$file")"
  printf '%s\n' "$content" >"$tmp/t/$file"
  out=$(bash "$lint" --root "$tmp/t" 2>&1)
  local rc=$?
  if [ "$rc" -ne 0 ] && grep -qF -- "$want" <<<"$out"; then
    echo "ok   $name"
    pass=$((pass + 1))
  else
    echo "FAIL $name (exit $rc, wanted a failure saying: $want)"
    sed 's/^/     | /' <<<"$out"
    fail=$((fail + 1))
  fi
}

clean
if out=$(bash "$lint" --root "$tmp/t" 2>&1); then
  echo "ok   a clean tree passes (comments, strings, a 120-line function)"
  pass=$((pass + 1))
else
  echo "FAIL a clean tree fails"
  sed 's/^/     | /' <<<"$out"
  fail=$((fail + 1))
fi

must_fail "banned call" src/lib/core/bad.c \
  'void f(char *a, const char *b) { strcpy(a, b); }' \
  'banned call: src/lib/core/bad.c:1:'
must_fail "banned call after a comment on the line" src/lib/core/bad.c \
  'int g(const char *s) { /* parse */ return atoi(s); }' \
  'banned call: src/lib/core/bad.c:1:'
must_fail "layer: core includes run" src/lib/core/up.c \
  '#include "run/sched.h"' \
  "src/lib/core/up.c:1: 'core' includes 'run/'"
must_fail "layer: report includes run" src/lib/report/r.c \
  '#include "run/record.h"' \
  "src/lib/report/r.c:1: 'report' includes 'run/'"
must_fail "layer: public header includes core" include/ananke/x.h \
  '#include "core/buf.h"' \
  "include/ananke/x.h:1: 'ananke' includes 'core/'"
must_fail "layer: a layer not in the table" src/lib/newlayer/n.c \
  '#include "core/buf.h"' \
  "layer 'newlayer' is not in tests/lint.sh's LAYERS table"
must_fail "portability: pipe2 outside core/port.c" src/lib/run/p.c \
  'int p(int *fds) { return pipe2(fds, 0); }' \
  'Linux-only call outside core/port.c (use core/port.h): src/lib/run/p.c:1:'
must_fail "portability: a /proc path" src/lib/check/q.c \
  'const char *q = "/proc/self/exe";' \
  'src/lib/check/q.c:1:'
must_fail "portability: a Linux header" src/mock/m.c \
  '#include <sys/prctl.h>' \
  'src/mock/m.c:1:'
long=$(printf 'int too_long(int x)\n{\n'; for i in $(seq 1 121); do echo "    x += $i;"; done; printf '}\n')
must_fail "function length: 121 lines" src/lib/check/long.c "$long" \
  'too long: src/lib/check/long.c: too_long() is 121 lines (at most 120)'

must_fail "make build runs the setup script" Makefile \
  "$(printf 'all: build\nsetup:\n\tbash scripts/setup.sh\nbuild: setup\n\tcmake --build build')" \
  "make: 'make build' would run: bash scripts/setup.sh"
must_fail "make installs with apt-get" Makefile \
  "$(printf 'all:\n\tsudo apt-get install -y libcurl4-openssl-dev\nsetup:\n\tbash scripts/setup.sh\nbuild:\n\ttrue')" \
  "make: 'make all' would run: sudo apt-get install"

must_fail "bench script reads a variable it never sets" bench/gen.sh \
  "$(printf '#!/usr/bin/env bash\nset -u\necho "$yaml_regex"')" \
  "bench/gen.sh line 3:"

echo "lint-self: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
