"""An AG-UI agent that answers at the byte level, for comparing ananke's two
HTTP clients (tests/clients/run.sh): the path of the POST picks how it
answers (every body framing, 1xx, redirects, errors, answers cut short,
reset, stalled, trickled, too many header bytes). Keeps connections open
between requests unless the mode closes them. 127.0.0.1 only; writes its
port to argv[1]."""
import json
import os
import socket
import struct
import sys
import threading
import time


def events(body):
    try:
        req = json.loads(body or b"{}")
    except ValueError:
        req = {}
    t, r = req.get("threadId", "t"), req.get("runId", "r")
    evs = [
        {"type": "RUN_STARTED", "threadId": t, "runId": r},
        {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hello "},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "world"},
        {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
        {"type": "RUN_FINISHED", "threadId": t, "runId": r},
    ]
    return [("data: " + json.dumps(e) + "\n\n").encode() for e in evs]


SSE = b"Content-Type: text/event-stream\r\n"


def chunked(parts):
    out = b""
    for p in parts:
        out += b"%x\r\n%s\r\n" % (len(p), p)
    return out


def answer(mode, conn, body, port):
    """Returns True to keep the connection for another request."""
    ev = events(body)
    whole = b"".join(ev)
    send = conn.sendall
    if mode == "cl":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Content-Length: %d\r\n\r\n" % len(whole) + whole)
        return True
    if mode == "chunked":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Transfer-Encoding: chunked\r\n\r\n")
        for e in ev:
            send(chunked([e[:7], e[7:]]))
            time.sleep(0.002)
        send(b"0\r\nX-Trailer: 1\r\n\r\n")
        return True
    if mode == "close":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"\r\n" + whole)
        return False
    if mode == "http10":
        send(b"HTTP/1.0 200 OK\r\n" + SSE + b"Content-Length: %d\r\n\r\n" % len(whole) + whole)
        return False
    if mode == "continue":
        send(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n")
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Transfer-Encoding: chunked\r\n\r\n" + chunked([whole]) + b"0\r\n\r\n")
        return True
    if mode == "lf":
        send(b"HTTP/1.1 200 OK\nContent-Type: text/event-stream\nContent-Length: %d\n\n" % len(whole) + whole)
        return True
    if mode == "untyped":
        send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(whole) + whole)
        return True
    if mode == "nocontent":
        send(b"HTTP/1.1 204 No Content\r\n\r\n")
        return True
    if mode == "html":
        h = b"<!DOCTYPE html><html><head><title>Login</title></head></html>"
        send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(h) + h)
        return True
    if mode == "gzip":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Content-Encoding: gzip\r\nContent-Length: 4\r\n\r\n\x1f\x8b\x08\x00")
        return True
    if mode == "redirect":
        send(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: ../elsewhere/x?y=1\r\nContent-Length: 0\r\n\r\n")
        return True
    if mode == "redirect-abs":
        send(b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/far\r\nContent-Length: 0\r\n\r\n")
        return True
    if mode == "error500":
        b = b"oops: \x01the database is down\n"
        send(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: %d\r\n\r\n" % len(b) + b)
        return True
    if mode == "notfound":
        send(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found")
        return True
    if mode == "unavailable":
        send(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 4\r\n\r\nbusy")
        return True
    if mode == "cut-cl":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Content-Length: %d\r\n\r\n" % (len(whole) + 100) + whole[: len(ev[0]) + len(ev[1])])
        return False
    if mode == "cut-chunked":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(ev[:3]))
        return False
    if mode == "cut-head":
        send(b"HTTP/1.1 200 OK\r\n" + SSE)
        return False
    if mode == "reset":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"\r\n" + ev[0] + ev[1])
        time.sleep(0.05)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return False
    if mode == "empty":
        return False
    if mode == "http09":
        send(b"SSH-2.0-OpenSSH_9.2\r\n")
        return False
    if mode == "badchunk":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(ev[:1]) + b"zz\r\n")
        return False
    if mode == "badlength":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Content-Length: lots\r\n\r\n" + whole)
        return False
    if mode == "nocolon":
        send(b"HTTP/1.1 200 OK\r\nContent-Type text/event-stream\r\n\r\n")
        return False
    if mode == "bighead":
        pad = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"a" * 1000) for i in range(70))
        send(b"HTTP/1.1 200 OK\r\n" + pad + SSE + b"Content-Length: %d\r\n\r\n" % len(whole) + whole)
        return False
    if mode == "stall":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(ev[:2]))
        time.sleep(3)
        return False
    if mode == "silent":
        time.sleep(3)
        return False
    if mode == "slowloris":
        for c in b"HTTP/1.1 200 OK\r\nX-Slow: 1234567890\r\n":
            send(bytes([c]))
            time.sleep(0.05)
        return False
    if mode == "dropnext":
        send(b"HTTP/1.1 200 OK\r\n" + SSE + b"Content-Length: %d\r\n\r\n" % len(whole) + whole)
        return "drop"
    send(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 12\r\n\r\nunknown mode")
    return True


def read_request(conn, buf):
    while b"\r\n\r\n" not in buf:
        d = conn.recv(65536)
        if not d:
            return None, b""
        buf += d
    head, _, rest = buf.partition(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            n = int(v.strip())
    while len(rest) < n:
        d = conn.recv(65536)
        if not d:
            return None, b""
        rest += d
    path = head.split(b" ")[1].decode()
    return (path, rest[:n]), rest[n:]


def serve(conn, port):
    buf = b""
    drop = False
    try:
        while True:
            req, buf = read_request(conn, buf)
            if req is None or drop:
                break
            path, body = req
            mode = path.strip("/").split("/")[-1].split("?")[0]
            keep = answer(mode, conn, body, port)
            if keep == "drop":
                drop = True
            elif not keep:
                break
    except OSError:
        pass
    conn.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    port = s.getsockname()[1]
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    while True:
        c, _ = s.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(c, port), daemon=True).start()


main()
