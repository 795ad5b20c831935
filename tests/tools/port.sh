# shellcheck shell=bash
# Sourced by the tools suite: free_port prints a port free now, picked at
# random below the kernel's ephemeral range (32768 and up by default), so
# that no other suite's port 0 bind or client connection running beside
# this one takes it before the agent binds it (a port 0 bind released and
# handed on is how the agent of another suite once answered this one's).
free_port() {
  python3 -c '
import random, socket
for _ in range(500):
    p = random.randint(20000, 32000)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        s.close()
    print(p)
    break
else:
    raise SystemExit("no free port below 32000")'
}
