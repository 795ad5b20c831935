#!/usr/bin/env python3
"""An AG-UI agent that answers every run with a recorded stream, for
bench/hotpaths.sh's figure of decoding through `ananke run`.

    agui_stream_server.py STREAM PORT_FILE

STREAM is gen_agui_stream.py's file: its events are sent as one run (its own
RUN_STARTED and RUN_FINISHED lines left out; the run's own, with the
request's threadId and runId, around them), each event as one HTTP/1.1 chunk,
as a server that writes every event as it comes does (the official encoder's
`res.write` per event). The body is built once, before the port is written
to PORT_FILE, and sent with one write per request. Listens on 127.0.0.1, on
a port the system picks.
"""
import http.server
import json
import sys


def chunk(b):
    return b"%x\r\n" % len(b) + b + b"\r\n"


def load(path):
    with open(path, "rb") as f:
        events = f.read().split(b"\n\n")
    out = []
    for e in events:
        if not e or b'"type":"RUN_STARTED"' in e or b'"type":"RUN_FINISHED"' in e:
            continue
        out.append(chunk(e + b"\n\n"))
    return b"".join(out), len(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: agui_stream_server.py STREAM PORT_FILE")
    body, n = load(sys.argv[1])

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            ids = json.dumps({"threadId": req["threadId"], "runId": req["runId"]})[1:-1]
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            start = b'data: {"type":"RUN_STARTED",' + ids.encode() + b"}\n\n"
            end = b'data: {"type":"RUN_FINISHED",' + ids.encode() + b"}\n\n"
            self.wfile.write(chunk(start) + body + chunk(end) + b"0\r\n\r\n")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[2], "w") as f:
        f.write(f"{server.server_address[1]} {n + 2}\n")
    server.serve_forever()


if __name__ == "__main__":
    main()
