#!/usr/bin/env python3
"""A git smart-HTTP server on 127.0.0.1 for the credential-helper tests: git-http-backend behind
HTTP Basic auth. Usage: git-http-server.py PROJECT_ROOT USER PASSWORD PORT_FILE [REPO=USER:PASSWORD...]
Each REPO=USER:PASSWORD (e.g. b.git=bob:pw) makes that repository need another account. It writes the port it listens on to PORT_FILE, serves until killed, and stops by itself after
120 seconds so that a test that dies cannot leave it running."""
import base64, http.server, os, subprocess, sys, threading

root, user, password, port_file = sys.argv[1:5]
def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

expected_default = basic(user, password)
per_repo = {}
for spec in sys.argv[5:]:
    repo, _, account = spec.partition("=")
    per_repo["/" + repo] = basic(*account.split(":", 1))

def expected_for(path):
    for prefix, expected in per_repo.items():
        if path == prefix or path.startswith(prefix + "/"):
            return expected
    return expected_default

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle_any(self):
        if self.headers.get("Authorization") != expected_for(self.path.partition("?")[0]):
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="pwtui-test"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        path, _, query = self.path.partition("?")
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                   QUERY_STRING=query, REQUEST_METHOD=self.command, REMOTE_USER=user,
                   CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)))
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.decode().split("\r\n"):
            name, _, value = line.partition(": ")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                headers.append((name, value))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = handle_any
    do_POST = handle_any

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
threading.Timer(120, server.shutdown).start()
server.serve_forever()
