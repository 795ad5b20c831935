#!/bin/sh
echo "db not reachable" >&2
exit 3
