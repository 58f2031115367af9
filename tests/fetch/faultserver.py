#!/usr/bin/env python3
"""faultserver.py ROOT PORTFILE - a small HTTP server that misbehaves on
purpose, for the fetch tests.  nginx is the real server for the normal
path; this one injects the faults nginx cannot be told to make.

  /cut/X        the first 3 requests for X send the headers, then a random
                part of the body, then drop the connection; Range honoured
  /cutnorange/X like /cut/ but Range is ignored (always 200, whole file)
  /flaky/X      the first 2 requests for X answer 503, then the file
  /stall/X      headers, then nothing at all
  /slow/X       the file in 4 KiB pieces, 40 ms apart (progress to watch)
  /swap/X       the first request for X sends the bytes of X.decoy (as
                if they were the start of X), waits 1 s and drops the
                connection; later ones ignore Range (200, the whole X)
  /X            the file, with Range
Logs one line per request (path, Range, what it did) on stdout."""
import os
import random
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
COUNTS = {}
LOCK = threading.Lock()
RNG = random.Random(os.getpid())


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        pass

    def say(self, what):
        print("%s range=%s %s" % (self.path, self.headers.get("Range", "-"), what), flush=True)

    def do_GET(self):
        m = re.match(r"^/(cut|cutnorange|flaky|stall|slow|swap)(/.*)$", self.path)
        mode, rel = (m.group(1), m.group(2)) if m else ("plain", self.path)
        path = os.path.join(ROOT, rel.lstrip("/"))
        if not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.say("404")
            return
        with LOCK:
            n = COUNTS.get(self.path, 0)
            COUNTS[self.path] = n + 1
        data = open(path, "rb").read()
        if mode == "flaky" and n < 2:
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.send_header("Retry-After", "0")
            self.end_headers()
            self.say("503")
            return
        start = 0
        rng = self.headers.get("Range")
        if rng and mode not in ("cutnorange", "swap"):
            start = int(re.match(r"bytes=(\d+)-", rng).group(1))
        if start >= len(data) and start > 0:
            self.send_response(416)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.say("416")
            return
        body = data[start:]
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if mode == "stall":
            self.say("stall")
            time.sleep(30)
            return
        if mode == "swap" and n == 0 and os.path.isfile(path + ".decoy"):
            decoy = open(path + ".decoy", "rb").read()[:len(body) - 1]
            self.wfile.write(decoy)
            self.wfile.flush()
            # Logged before the wait: the client may finish (and the test
            # read the log) while this thread still sleeps.
            self.say("decoy of %d bytes, cut" % len(decoy))
            time.sleep(1)
            self.close_connection = True
            import socket
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode in ("cut", "cutnorange") and n < 3 and len(body) > 2:
            k = RNG.randint(1, len(body) - 1)
            self.wfile.write(body[:k])
            self.wfile.flush()
            self.say("cut at %d of %d" % (start + k, len(data)))
            self.close_connection = True
            import socket
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "slow":
            for i in range(0, len(body), 4096):
                self.wfile.write(body[i:i + 4096])
                self.wfile.flush()
                time.sleep(0.04)
            self.say("sent %d from %d slowly" % (len(body), start))
            return
        self.wfile.write(body)
        self.say("sent %d from %d" % (len(body), start))


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
srv.daemon_threads = True
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
srv.serve_forever()
