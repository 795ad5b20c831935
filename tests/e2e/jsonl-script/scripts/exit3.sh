#!/bin/sh
cat >/dev/null
echo "database not reachable" >&2
exit 3
