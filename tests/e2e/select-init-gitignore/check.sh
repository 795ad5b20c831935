# `ananke init` makes .gitignore ignore .ananke/ (the --last-failed state):
# written when there is none, appended to one that lacks it, left alone
# when it has it
set -e
grep -qx '.ananke/' out/proj/.gitignore
mkdir -p out/p2 && printf 'node_modules/' > out/p2/.gitignore   # no final newline
"$ANANKE" init out/p2 > out/p2.out
grep -qx 'added .ananke/ to out/p2/.gitignore' out/p2.out
[ "$(head -n1 out/p2/.gitignore)" = "node_modules/" ] && grep -qx '.ananke/' out/p2/.gitignore
mkdir -p out/p3 && printf '/.ananke\n' > out/p3/.gitignore
"$ANANKE" init out/p3 > out/p3.out
if grep -q gitignore out/p3.out; then exit 1; fi
[ "$(cat out/p3/.gitignore)" = "/.ananke" ]
echo ok
