#!/bin/sh
# A hook that prints half its variables, then hangs past its timeout.
printf '{"SLOW_TOKEN": "8HPtST2T3gHVj6GSHnxJ", "NEXT": "'
exec sleep 30
