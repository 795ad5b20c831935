#!/bin/sh
# An ACP agent that looks around before it speaks (tests/security/comply.sh):
# what it reaches goes to stderr, which the compliance report quotes for a
# failed test; then it is ananke-mock acp. Arguments: MOCK SCENARIO CANARY
# VISIBLE PORT (its environment is scrubbed: nothing else reaches it).
mock=$1 scenario=$2 canary=$3 visible=$4 port=$5
{
  cat "$canary" && echo AGENT-READ-HOME
  echo overwritten >>"$visible/ro.txt" && echo AGENT-WROTE-OUTSIDE
  bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" && echo AGENT-CONNECTED
  [ -n "${CS_HIDDEN:-}" ] && echo "AGENT-HAS-HIDDEN $CS_HIDDEN"
  echo "agent-home: $HOME"
  echo "agent-key: ${COMPLY_API_KEY:-none}"
} >&2
exec "$mock" acp --scenario "$scenario"
