"""A tiny stand-in for GitHub's REST API, for tests/action/run.sh: the issue
comments of pull requests (list, create, update), kept in memory. Every
request is appended to LOG as one JSON line {method, path, auth, body}.
Usage: python3 fake_api.py PORT_FILE LOG"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

port_file, log = sys.argv[1], sys.argv[2]
comments = {}  # id -> {"id", "issue", "body"}
next_id = [1000]


class Api(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def answer(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        url = urlsplit(self.path)
        with open(log, "a") as f:
            f.write(json.dumps({"method": self.command, "path": url.path,
                                "auth": self.headers.get("Authorization"),
                                "body": raw.decode("utf-8", "replace")}) + "\n")
        parts = url.path.strip("/").split("/")
        # repos/O/R/issues/N/comments and repos/O/R/issues/comments/ID
        if len(parts) == 6 and parts[0] == "repos" and parts[3] == "issues" and parts[5] == "comments":
            issue = parts[4]
            if self.command == "GET":
                q = parse_qs(url.query)
                per = int(q.get("per_page", ["30"])[0])
                page = int(q.get("page", ["1"])[0])
                mine = [c for c in comments.values() if c["issue"] == issue]
                return self.answer(200, mine[(page - 1) * per: page * per])
            if self.command == "POST":
                next_id[0] += 1
                c = {"id": next_id[0], "issue": issue, "body": json.loads(raw)["body"]}
                comments[c["id"]] = c
                return self.answer(201, c)
        if len(parts) == 6 and parts[3] == "issues" and parts[4] == "comments" and self.command == "PATCH":
            c = comments.get(int(parts[5]))
            if c is None:
                return self.answer(404, {"message": "Not Found"})
            c["body"] = json.loads(raw)["body"]
            return self.answer(200, c)
        return self.answer(404, {"message": "Not Found"})

    do_GET = do_POST = do_PATCH = handle_any


srv = ThreadingHTTPServer(("127.0.0.1", 0), Api)
with open(port_file + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(port_file + ".tmp", port_file)
srv.serve_forever()
