"""An AG-UI agent no YAML can script: it answers every POST with the bytes of
the file named by argv[1] as an SSE stream (invalid UTF-8 included), on
127.0.0.1 only, and writes its port to argv[2]."""
import http.server
import os
import sys

BODY = open(sys.argv[1], "rb").read()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
