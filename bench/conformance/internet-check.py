#!/usr/bin/env python3
"""The internet as the e2e "Networking" specs' first step asks for it, answered on this machine.

Every spec of upstream's `[sig-network] Networking` block (v1.20.2, test/e2e/network/networking.go) begins with
`http.Get("http://google.com")` from the e2e.test process and fails unless it answers 200: "not really a test of
kubernetes in any way", in the spec's own words, but this machine has no internet, so all of them failed there for any
kubelet. bench/conformance/run starts this HTTP proxy on loopback and gives e2e.test HTTP_PROXY pointing at it, with
NO_PROXY naming every address of the cluster (the node, the pod and Service ranges), so that only that request comes
here. It answers 200 to a GET of http://google.com/ alone; any other request gets 502 naming it, so that an address
NO_PROXY misses fails loudly instead of being answered. Nothing the specs then test (pods, Services, kube-proxy) goes
through it.

    internet-check.py PORT_FILE    listens on a free loopback port and writes the port to PORT_FILE
"""
import http.server
import sys
from urllib.parse import urlsplit

ANSWERED_HOSTS = {"google.com", "www.google.com"}


class InternetCheck(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        # A proxy is sent the absolute URL: GET http://google.com/ HTTP/1.1
        host = urlsplit(self.path).hostname
        if host in ANSWERED_HOSTS:
            self.answer(200, "the internet check of bench/conformance/run\n")
        else:
            self.answer(502, f"bench/conformance/internet-check.py answers only {sorted(ANSWERED_HOSTS)}, "
                             f"not {self.path}: add its address to NO_PROXY in bench/conformance/run\n")

    do_HEAD = do_POST = do_PUT = do_DELETE = do_GET

    def answer(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, fmt, *args):
        sys.stderr.write("internet-check: %s %s\n" % (self.address_string(), fmt % args))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: internet-check.py PORT_FILE")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), InternetCheck)
    with open(sys.argv[1], "w") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
