"""An MCP endpoint for bombs.sh: every POST is answered with an event
stream of 20000 small valid notifications (none the answer), then the
stream ends. Prints its port once listening; loopback only."""
import http.server
import sys

EVENT = b'data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n'


class Flood(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        try:
            self.wfile.write(EVENT * 20000)
        except OSError:
            pass

    def log_message(self, *args):
        pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Flood)
print(srv.server_address[1], flush=True)
sys.stdout.close()
srv.serve_forever()
