#!/bin/sh
cat >/dev/null
echo "hello there"
