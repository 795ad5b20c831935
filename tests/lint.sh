#!/usr/bin/env bash
# The lint step of `make test` (and `make lint`), over the C in src/ and
# include/, the Makefile and the benchmark scripts (docs/internals.md
# "Layers and the lint step"). Six rules:
#   banned   no sprintf, vsprintf, strcpy, strcat, strtok, atoi, atol, atoll,
#            atof, gets (STYLE.md: bounded or checked equivalents)
#   layer    no #include arrow from a layer to one it may not use (LAYERS)
#   port     the Linux-only calls only in src/lib/core/port.c and the
#            Linux-only modules (PORT_FILES): core/port.h is the way in
#   length   no function in src/ longer than MAX_FN_LINES lines
#   make     `make` and `make build` never install packages: their recipes
#            (make -n) never reach scripts/setup.sh, apt-get or npm
#   bench    the benchmark scripts (bench/*.sh) pass `shellcheck -S warning`:
#            no test runs them (they take minutes), so a variable read but
#            never set waits for the next person who measures
# Comments are stripped before the checks (string literals are kept: a
# "/proc/..." path is a use). Known breaches are listed below with their
# reason, to be removed; an entry that no longer matches anything is
# reported as stale (a note, not a failure).
#   tests/lint.sh [--root DIR]    DIR: the tree to check (default: the checkout)
# Ends with "lint: N passed, N failed"; tests/lint/run.sh feeds it bad files.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
notes=1 # the stale-entry notes describe the checkout, not another tree
[ "${1:-}" = --root ] && { root=$(cd "$2" && pwd); notes=0; }
cd "$root" || exit 2

MAX_FN_LINES=120

# ---- the layers ----------------------------------------------------------
# A file's layer is its directory (src/lib/NAME/, src/cli, src/mock,
# include/ananke). Each row: the layer, then the layers it may include
# besides itself and the public headers (ananke/). Order, lowest first:
# core < load, proto < check < run < report < compare < cli, mock.
# Adding a layer is one row here.
LAYERS="
core
load     core
proto    core
check    core load proto
run      core load proto check tools
report   core load proto check
compare  core load proto check run report
tools    core load proto check
history  core load proto check run report
view     core load proto check run report history
otlp     core proto
cli
mock     core proto
ananke
"
# Known breaches: FROM (a layer, or a file) TO (a layer) | the reason.
LAYER_EXCEPTIONS="
"

# ---- the portability rule ------------------------------------------------
PORT_CALLS='(^|[^A-Za-z0-9_])(pipe2|close_range|getrandom|accept4|unshare|setns|prctl|sched_getaffinity|sched_getcpu|pthread_(attr_)?setaffinity_np|pidfd_open|openat2|epoll_[a-z_]+|inotify_[a-z_]+|syncfs|signalfd|eventfd|memfd_create)[[:space:]]*[(]|(^|[^A-Za-z0-9_])(SYS_[a-z_0-9]+|SOCK_CLOEXEC|SOCK_NONBLOCK|MSG_NOSIGNAL|O_PATH|CLONE_NEW[A-Z]+)([^A-Za-z0-9_]|$)|#[[:space:]]*include[[:space:]]*<(linux/|sys/prctl[.]h|sys/syscall[.]h|sys/random[.]h|sys/epoll[.]h)'
# ... and the paths, looked for in string literals (the calls are not)
PORT_PATHS='"/proc/'
# files that may use them: the layer itself, and the modules that exist only
# on Linux (compiled only where their probe says so, with a refusing twin)
PORT_FILES="
src/lib/core/port.c        | the portability layer
src/lib/core/port.h        | the portability layer (AN_O_PATH)
src/lib/core/confine.c     | Linux namespaces; confine_none.c where AN_HAVE_CONFINE is 0
src/lib/proto/acp_path.c   | openat2 under AN_HAVE_OPENAT2; the O_NOFOLLOW walk elsewhere
"

# ---- function length -----------------------------------------------------
# FILE FUNCTION: the functions over MAX_FN_LINES today (issue 20 splits
# them); empty this list as they are split.
LONG_FUNCTIONS="
"

BANNED='(^|[^A-Za-z0-9_])(sprintf|vsprintf|strcpy|strcat|strtok|atoi|atol|atoll|atof|gets)[[:space:]]*[(]'

# ---------------------------------------------------------------------------
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=$(find src include -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort)
if [ -z "$files" ]; then
  echo "lint: no C files under $root/src or include"
  echo "lint: 0 passed, 1 failed"
  exit 1
fi

# Each file without its comments, line numbers kept: FILE<TAB>LINE<TAB>TEXT
decomment() {
  awk '
    FNR == 1 { inc = 0 }
    {
      line = $0; out = ""
      while (length(line)) {
        if (inc) {
          e = index(line, "*/")
          if (!e) { line = ""; break }
          line = substr(line, e + 2); inc = 0; continue
        }
        s = index(line, "/*"); d = index(line, "//")
        # a "//" or "/*" inside a string literal is kept (good enough: the
        # checks look for calls and includes, not for text in strings)
        q = index(line, "\"")
        if (q && (!s || q < s) && (!d || q < d)) {
          rest = substr(line, q + 1); n = 0
          while (match(rest, /^([^"\\]|\\.)*"/)) { n = RLENGTH; break }
          if (!n) { out = out line; line = ""; break }
          out = out substr(line, 1, q + n); line = substr(line, q + n + 1); continue
        }
        if (d && (!s || d < s)) { out = out substr(line, 1, d - 1); line = ""; break }
        if (s) { out = out substr(line, 1, s - 1) " "; line = substr(line, s + 2); inc = 1; continue }
        out = out line; line = ""
      }
      printf "%s\t%d\t%s\n", FILENAME, FNR, out
    }' "$@"
}
# shellcheck disable=SC2086
decomment $files >"$tmp/code"

ok()  { echo "ok   $1"; pass=$((pass + 1)); }
note() { [ "$notes" = 0 ] || echo "note: $*"; }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# FILE -> its layer ("" when it is in none)
layer_of() {
  case $1 in
    src/lib/*/*) local l=${1#src/lib/}; echo "${l%%/*}" ;;
    src/cli/*) echo cli ;;
    src/mock/*) echo mock ;;
    include/ananke/*) echo ananke ;;
    *) echo "" ;;
  esac
}

# ---- banned calls ----
awk -F'\t' -v re="$BANNED" '{ t = $3; gsub(/"([^"\\]|\\.)*"/, "\"\"", t)
  if (t ~ re) print $1 ":" $2 ": " $3 }' "$tmp/code" \
  | sed -E 's/[[:space:]]+/ /g' >"$tmp/banned"
if [ -s "$tmp/banned" ]; then
  sed 's/^/  banned call: /' "$tmp/banned"
  bad "banned calls ($(wc -l <"$tmp/banned") uses)"
else
  ok "banned calls (none of sprintf, strcpy, strcat, strtok, atoi, gets, ...)"
fi

# ---- layers ----
known_layers=$(awk 'NF { print $1 }' <<<"$LAYERS")
: >"$tmp/layer" ; : >"$tmp/used_exc"
awk -F'\t' '$3 ~ /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+\// {
  t = $3; sub(/^[^"]*"/, "", t); sub(/\/.*/, "", t); print $1 "\t" $2 "\t" t }' "$tmp/code" \
  >"$tmp/includes"
while IFS=$'\t' read -r f n to; do
  from=$(layer_of "$f")
  [ -n "$from" ] || continue
  [ "$to" = "$from" ] || [ "$to" = ananke ] && continue
  if ! grep -qx "$from" <<<"$known_layers"; then
    echo "$f:$n: layer '$from' is not in tests/lint.sh's LAYERS table" >>"$tmp/layer"
    continue
  fi
  allowed=$(awk -v l="$from" '$1 == l { $1 = ""; print }' <<<"$LAYERS")
  case " $allowed " in *" $to "*) continue ;; esac
  exc=$(awk -v f="$f" -v l="$from" -v t="$to" '($1 == f || $1 == l) && $2 == t { print $1 " " $2; exit }' \
        <<<"$LAYER_EXCEPTIONS")
  if [ -n "$exc" ]; then
    echo "$exc" >>"$tmp/used_exc"
    continue
  fi
  echo "$f:$n: '$from' includes '$to/' (the LAYERS table of tests/lint.sh allows:${allowed:- nothing})" \
    >>"$tmp/layer"
done <"$tmp/includes"
if [ -s "$tmp/layer" ]; then
  sed 's/^/  layer: /' "$tmp/layer"
  bad "layer rules ($(wc -l <"$tmp/layer") includes)"
else
  ok "layer rules ($(sort -u "$tmp/used_exc" | wc -l) known exceptions in use)"
fi
awk -F'|' 'NF { split($1, a, " "); print a[1] " " a[2] }' <<<"$LAYER_EXCEPTIONS" | while read -r e; do
  [ -z "$e" ] || grep -qxF "$e" "$tmp/used_exc" || note "layer exception '$e' is stale: remove it from tests/lint.sh"
done

# ---- portability ----
port_ok=$(awk -F'|' 'NF { split($1, a, " "); print a[1] }' <<<"$PORT_FILES")
awk -F'\t' -v re="$PORT_CALLS" -v paths="$PORT_PATHS" '{
  t = $3; gsub(/"([^"\\]|\\.)*"/, "\"\"", t)
  if (t ~ re || $3 ~ paths) print $1 "\t" $2 "\t" $3 }' "$tmp/code" >"$tmp/portuse"
: >"$tmp/port"
while IFS=$'\t' read -r f n text; do
  grep -qxF "$f" <<<"$port_ok" && continue
  echo "$f:$n: $(sed -E 's/^[[:space:]]+//; s/[[:space:]]+/ /g' <<<"$text")" >>"$tmp/port"
done <"$tmp/portuse"
if [ -s "$tmp/port" ]; then
  sed 's/^/  Linux-only call outside core\/port.c (use core\/port.h): /' "$tmp/port"
  bad "portability ($(wc -l <"$tmp/port") uses)"
else
  ok "portability (Linux-only calls only in: $(tr '\n' ' ' <<<"$port_ok" | sed -E 's/^ +| +$//g'))"
fi
for f in $port_ok; do
  [ -f "$f" ] || note "PORT_FILES names '$f', which does not exist: remove it from tests/lint.sh"
done

# ---- function length ----
# A function starts with "{" at column 0 and ends with "}" at column 0; its
# name is the identifier before the first "(" of the last line at column 0
# that has one. Its length is the lines between the two braces.
src_files=$(grep -E '^src/.*\.c$' <<<"$files")
# shellcheck disable=SC2086
[ -n "$src_files" ] && awk -v max="$MAX_FN_LINES" '
  FNR == 1 { infn = 0; name = "" }
  /^\{/ { if (name != "") { infn = 1; start = FNR; fn = name } ; next }
  /^\}/ { if (infn && FNR - start - 1 > max) printf "%s %s %d\n", FILENAME, fn, FNR - start - 1; infn = 0; name = ""; next }
  !infn && /^[A-Za-z_]/ && index($0, "(") {
    h = substr($0, 1, index($0, "(") - 1); n = split(h, w, /[^A-Za-z_0-9]+/)
    name = ""; for (i = n; i >= 1; i--) if (w[i] != "") { name = w[i]; break }
  }
' $src_files >"$tmp/long"
: >"$tmp/longbad"; : >"$tmp/used_long"
while read -r f fn len; do
  if awk -v f="$f" -v n="$fn" '$1 == f && $2 == n { found = 1 } END { exit !found }' <<<"$LONG_FUNCTIONS"; then
    echo "$f $fn" >>"$tmp/used_long"
  else
    echo "$f: $fn() is $len lines (at most $MAX_FN_LINES)" >>"$tmp/longbad"
  fi
done <"$tmp/long"
if [ -s "$tmp/longbad" ]; then
  sed 's/^/  too long: /' "$tmp/longbad"
  bad "function length ($(wc -l <"$tmp/longbad") functions over $MAX_FN_LINES lines)"
else
  ok "function length (at most $MAX_FN_LINES lines; $(wc -l <"$tmp/used_long") allowed while being split)"
fi
awk 'NF { print $1 " " $2 }' <<<"$LONG_FUNCTIONS" | while read -r e; do
  grep -qxF "$e" "$tmp/used_long" || note "'$e' is no longer over $MAX_FN_LINES lines: remove it from LONG_FUNCTIONS"
done

# ---- make and make build never install ----
if [ -f Makefile ]; then
  : >"$tmp/make"
  for t in all build; do
    if ! make -n -s -C "$root" "$t" >"$tmp/make.$t" 2>&1; then
      echo "make -n $t fails: $(tail -n 1 "$tmp/make.$t")" >>"$tmp/make"
    elif m=$(grep -E 'setup\.sh|apt-get|apt |npm (ci|install)|dnf |brew ' "$tmp/make.$t"); then
      echo "'make $t' would run: $(head -n 1 <<<"$m")" >>"$tmp/make"
    fi
  done
  # the check itself: it must see the setup script in `make setup`
  make -n -s -C "$root" setup 2>/dev/null | grep -q 'setup\.sh' ||
    echo "'make -n setup' does not show scripts/setup.sh: this check cannot see an install" >>"$tmp/make"
  if [ -s "$tmp/make" ]; then
    sed 's/^/  make: /' "$tmp/make"
    bad "make and make build never install packages"
  else
    ok "make and make build never install packages (make setup does)"
  fi
fi

# ---- the benchmark scripts ----
shopt -s nullglob
benches=(bench/*.sh)
shopt -u nullglob
if [ ${#benches[@]} -gt 0 ]; then
  if ! command -v shellcheck >/dev/null; then
    bad "bench scripts: shellcheck is not installed (make setup installs it)"
  elif sc=$(shellcheck -S warning -x "${benches[@]}" 2>&1); then
    ok "bench scripts pass shellcheck -S warning (${#benches[@]} files)"
  else
    grep -E '^In |SC[0-9]+' <<<"$sc" | sed 's/^/  /' | head -n 40
    bad "bench scripts pass shellcheck -S warning"
  fi
fi

echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
