"""Two HTTP listeners on 127.0.0.1, two origins: "a" (the one a config names)
and "b" (another port, so another origin). Every request is logged to
argv[1] as one JSON line {"at": "a"|"b", "method", "path", "headers"}; the
ports go to argv[2] as "A B". What each path answers (either listener):

  /card/.well-known/agent-card.json    an A2A 0.3 card whose url is THIS
                                       listener's /rpc
  /cross/.well-known/agent-card.json   a card whose url is the OTHER one's /rpc
  /moved/.well-known/agent-card.json   302 to the other listener's
                                       /card/.well-known/agent-card.json
  /rpc                                 a JSON-RPC answer: an agent message "hi"
  /redirect/...                        307 to the other listener, same path
                                       less /redirect (any method)
  /html, /html/...                     200 text/html (any path under these
                                       four: an openai target adds its own)
  /nocontent                           204, no body
  /gzip                                200 text/event-stream, gzip-encoded
                                       though nobody asked for it
  /json                                200 application/json, not a stream
  anything else                        404
"""
import gzip
import http.server
import json
import os
import sys
import threading

LOG = open(sys.argv[1], "a", buffering=1)
lock = threading.Lock()
ports = {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def me(self):
        return self.server.name

    def other(self):
        return "b" if self.me() == "a" else "a"

    def url(self, who, path):
        return "http://127.0.0.1:%d%s" % (ports[who], path)

    def answer(self, status, ctype=None, body=b"", extra=()):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        if status != 204:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 204:
            self.wfile.write(body)

    def handle_any(self):
        n = int(self.headers.get("Content-Length", "0") or 0)
        req = self.rfile.read(n) if n else b""
        with lock:
            LOG.write(json.dumps({"at": self.me(), "method": self.command, "path": self.path,
                                  "headers": {k.lower(): v for k, v in self.headers.items()}})
                      + "\n")
        p = self.path
        if p.startswith("/redirect/"):
            return self.answer(307, extra=[("Location", self.url(self.other(), p[9:]))])
        if p == "/moved/.well-known/agent-card.json":
            return self.answer(302, extra=[("Location", self.url(
                self.other(), "/card/.well-known/agent-card.json"))])
        if p in ("/card/.well-known/agent-card.json", "/cross/.well-known/agent-card.json"):
            who = self.me() if p.startswith("/card/") else self.other()
            card = {"name": "origin-test", "protocolVersion": "0.3",
                    "url": self.url(who, "/rpc"), "preferredTransport": "JSONRPC",
                    "capabilities": {"streaming": False},
                    "securitySchemes": {"key": {"type": "apiKey", "in": "header",
                                                "name": "X-Api-Key"}}}
            return self.answer(200, "application/json", json.dumps(card).encode())
        if p == "/rpc":
            try:
                rid = json.loads(req or b"{}").get("id", 1)
            except ValueError:
                rid = 1
            msg = {"jsonrpc": "2.0", "id": rid,
                   "result": {"kind": "message", "messageId": "m-1", "role": "agent",
                              "parts": [{"kind": "text", "text": "hi from " + self.me()}]}}
            return self.answer(200, "application/json", json.dumps(msg).encode())
        top = "/" + p.split("/")[1]
        if top == "/html":
            return self.answer(200, "text/html; charset=utf-8",
                               b"<!DOCTYPE html><html><head><title>Login</title></head>"
                               b"<body>please sign in</body></html>\n")
        if top == "/nocontent":
            return self.answer(204)
        if top == "/gzip":
            body = gzip.compress(b'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
                                 b'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n')
            return self.answer(200, "text/event-stream", body, [("Content-Encoding", "gzip")])
        if top == "/json":
            return self.answer(200, "application/json", b'{"ok": true}')
        return self.answer(404, "text/plain", b"no such path\n")

    do_GET = do_POST = do_DELETE = handle_any

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


servers = {}
for name in ("a", "b"):
    s = Server(("127.0.0.1", 0), Handler)
    s.name = name
    servers[name] = s
    ports[name] = s.server_address[1]
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write("%d %d\n" % (ports["a"], ports["b"]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
threading.Thread(target=servers["b"].serve_forever, daemon=True).start()
servers["a"].serve_forever()
