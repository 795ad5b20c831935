#!/usr/bin/env bash
# The excerpt shows a line of the file: no control byte of it (ESC, BEL,
# the C1 CSI U+009B, a raw 0xff) reaches the terminal.
set -u
for f in "$OUT/stdout" "$OUT/stderr"; do
  if LC_ALL=C grep -q $'[\x1b\x07\xff]' "$f" || LC_ALL=C grep -q $'\xc2\x9b' "$f"; then
    echo "a control byte of the file reached $(basename "$f")"; exit 1
  fi
done
