#!/bin/sh
# An ACP agent that looks around before it speaks: what it reaches goes to
# agent-probe.txt in its working directory (the sandbox), which the scenario
# then reads back through fs/read_text_file; then it is ananke-mock acp.
# Everything it needs comes from the target's env: (its environment is
# scrubbed): MOCK, SCENARIO, CF_HOME, CF_VISIBLE, CF_PORT, CF_SPID.
{
  cat "$CF_HOME/canary.txt" && echo AGENT-READ-HOME
  echo overwritten >>"$CF_VISIBLE/ro.txt" && echo AGENT-WROTE-OUTSIDE
  bash -c "exec 3<>/dev/tcp/127.0.0.1/$CF_PORT" && echo AGENT-CONNECTED
  kill -TERM "$CF_SPID" && echo AGENT-SIGNALLED
  sleep 129.25 &
  setsid sleep 130.25 &
  echo "agent-env:"
  env
} >agent-probe.txt 2>&1
exec "$MOCK" acp --scenario "$SCENARIO"
