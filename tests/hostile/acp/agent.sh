#!/bin/sh
# ACP agents that misbehave as processes (tests/hostile/run.sh):
#   exit       exits mid-turn, after reading initialize
#   closeout   closes its stdout and keeps running
#   stderr     floods stderr and never answers (its stdout kept open on fd 3)
#   orphans    leaves a child behind (sleep 3131), then serves as ananke-mock acp
#   bigframe   writes one 40 MB line (over the 32 MiB frame cap)
case "$1" in
  exit) read -r _; exit 3 ;;
  closeout) exec 1>&-; exec sleep 3132 ;;
  stderr) exec 3>&1; exec yes "flooding stderr" >&2 ;;
  orphans) (sleep 3131 &); exec "$MOCK" acp ;;
  bigframe) read -r _; head -c 40000000 /dev/zero | tr '\0' a; echo; exec sleep 3133 ;;
esac
