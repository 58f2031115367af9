#!/usr/bin/env python3
"""mirror.py ROOT PORTFILE - the air-gapped site's mirror, on 127.0.0.1.

Serves the files under ROOT (HOST/PATH for each https://HOST/PATH the
Dockerfile fetches, and a flat apt repository) and git's smart HTTP for
the bare repositories under it (git http-backend, so that shallow clones
and fetches by commit work as they do against GitHub).  Binds a free
port, writes it to PORTFILE, serves until killed.  Logs each request on
stderr: the test reads which paths were asked for.
"""
import http.server
import os
import socketserver
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1])


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=ROOT, **kw)

    def git(self):
        path, _, query = self.path.partition("?")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": ROOT, "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path, "QUERY_STRING": query,
            "REQUEST_METHOD": self.command, "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
        }
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        if self.headers.get("Content-Encoding") == "gzip":
            import gzip
            body = gzip.decompress(body)
        env["CONTENT_LENGTH"] = str(len(body))
        r = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
        head, _, payload = r.stdout.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode("latin-1").split("\r\n"):
            k, _, v = line.partition(":")
            if k.lower() == "status":
                status = int(v.split()[0])
            elif k:
                headers.append((k, v.strip()))
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        if ".git/" in self.path:
            return self.git()
        return super().do_GET()

    def do_POST(self):
        if ".git/" in self.path:
            return self.git()
        self.send_error(405)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Handler)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
srv.serve_forever()
