#!/usr/bin/env python3
"""A recorded AG-UI stream for bench/hotpaths.sh, generated deterministically.

    gen_agui_stream.py OUT [MEGABYTES]    (default 100)

One SSE body after another, each one run as an agent streams it: RUN_STARTED,
a text message in small deltas (a few words each, some with escapes and
non-ASCII text), a tool call whose JSON arguments arrive in small pieces,
TOOL_CALL_END, RUN_FINISHED. The same bytes every time (fixed seed), so the
file is not kept in the repository.
"""
import json
import random
import sys

WORDS = ("the weather in Paris is sunny with a light breeze from the west and "
         "temperatures around twenty one degrees Celsius later today expect "
         "clouds near the coast caf\u00e9 na\u00efve \u00fcber \u65e5\u672c "
         "\U0001F600 \"quoted\" back\\slash tab\there new\nline").split(" ")


def ev(out, obj):
    out.append("data: " + json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n\n")


def run(rng, n):
    out = []
    tid, rid, mid, cid = "thread-1", f"run-{n}", f"msg-{n}", f"call-{n}"
    ev(out, {"type": "RUN_STARTED", "threadId": tid, "runId": rid})
    ev(out, {"type": "TEXT_MESSAGE_START", "messageId": mid, "role": "assistant"})
    for _ in range(rng.randint(40, 80)):
        delta = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))) + " "
        ev(out, {"type": "TEXT_MESSAGE_CONTENT", "messageId": mid, "delta": delta})
    ev(out, {"type": "TEXT_MESSAGE_END", "messageId": mid})
    ev(out, {"type": "TOOL_CALL_START", "toolCallId": cid, "toolCallName": "search",
             "parentMessageId": mid})
    args = json.dumps({"query": " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60))),
                       "limit": rng.randint(1, 50), "filters": {"lang": "en", "safe": True}},
                      ensure_ascii=False)
    i = 0
    while i < len(args):
        k = rng.randint(4, 24)
        ev(out, {"type": "TOOL_CALL_ARGS", "toolCallId": cid, "delta": args[i:i + k]})
        i += k
    ev(out, {"type": "TOOL_CALL_END", "toolCallId": cid})
    ev(out, {"type": "RUN_FINISHED", "threadId": tid, "runId": rid})
    return "".join(out).encode()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gen_agui_stream.py OUT [MEGABYTES]")
    limit = int(float(sys.argv[2] if len(sys.argv) > 2 else 100) * 1000 * 1000)
    rng = random.Random(20261122)
    size = n = 0
    with open(sys.argv[1], "wb") as f:
        while size < limit:
            b = run(rng, n)
            f.write(b)
            size += len(b)
            n += 1
    print(f"{sys.argv[1]}: {size} bytes, {n} runs")


if __name__ == "__main__":
    main()
