#!/bin/sh
# Leaves its own mark, then waits for the other case's: both pass only when
# the two script checks run at the same time (off the event loop).
dir=${TMPDIR:-/tmp}/ananke-meet-$PPID  # one ananke run
mkdir -p "$dir"
read -r _input
touch "$dir/$1"
i=0
while [ ! -e "$dir/$2" ]; do
  i=$((i + 1))
  [ $i -gt 40 ] && { echo "{\"pass\": false, \"message\": \"$2 never came\"}"; exit 0; }
  sleep 0.1
done
echo true
