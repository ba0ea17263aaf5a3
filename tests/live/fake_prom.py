#!/usr/bin/env python3
"""fake_prom.py PORTFILE RANGE.json - an HTTP server on 127.0.0.1 (a free
port, written to PORTFILE) that answers /PREFIX/api/v1/query_range the ways
a Prometheus server, or what stands in its place, can go wrong. PREFIX picks
the behaviour:

  ok        the series of RANGE.json named by ?query=, a success
  warn      the same with two "warnings" (as Prometheus 2.42 adds them)
  baddata   HTTP 400 {"status":"error","errorType":"bad_data","error":...}
  unavail   HTTP 503 {"status":"error","errorType":"timeout",...}
  sleep     answers after 3 seconds (past --timeout 1)
  html      HTTP 200 with an HTML page (a proxy's login page, say)
  big       over 16 MiB while a query asks for more than 4000 points, then ok
  auth      HTTP 401 unless the request carries "Bearer t0ken" or the basic
            authentication of "user:pa55"

Every request is logged to stderr as "PREFIX POINTS" (points per series).
"""
import base64
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


def load(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["data"]["result"]


class Handler(BaseHTTPRequestHandler):
    series = []

    def log_message(self, fmt, *args):
        pass

    def send(self, status, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def result(self, q, warnings=None):
        """The series of the query, their points from start to end."""
        start, end, found = float(q["start"]), float(q["end"]), []
        for s in self.series:
            values = [v for v in s["values"] if start <= float(v[0]) <= end]
            if s["metric"]["__name__"] == q["query"] and values:
                found.append({"metric": s["metric"], "values": values})
        doc = {"status": "success", "data": {"resultType": "matrix", "result": found}}
        if warnings:
            doc["warnings"] = warnings
        return json.dumps(doc)

    def authorized(self):
        got = self.headers.get("Authorization", "")
        basic = "Basic " + base64.b64encode(b"user:pa55").decode()
        return got in ("Bearer t0ken", basic)

    def do_GET(self):
        url = urlparse(self.path)
        prefix, _, rest = url.path.strip("/").partition("/")
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        if rest != "api/v1/query_range" or "query" not in q:
            return self.send(404, "404 page not found\n", "text/plain; charset=utf-8")
        points = int((float(q["end"]) - float(q["start"])) / float(q["step"])) + 1
        print(prefix, points, file=sys.stderr, flush=True)
        if prefix == "ok":
            return self.send(200, self.result(q))
        if prefix == "warn":
            return self.send(200, self.result(q, [
                "PromQL info: metric might not be a counter",
                "a store was unreachable: \"eu-1\"\nretrying"]))
        if prefix == "baddata":
            return self.send(400, json.dumps({
                "status": "error", "errorType": "bad_data",
                "error": "invalid parameter \"query\": 1:1: parse error: unexpected end"}))
        if prefix == "unavail":
            return self.send(503, json.dumps({
                "status": "error", "errorType": "timeout",
                "error": "query timed out in query execution"}))
        if prefix == "sleep":
            time.sleep(3)
            return self.send(200, self.result(q))
        if prefix == "html":
            return self.send(200, "<!DOCTYPE html>\n<html><title>Sign in</title></html>\n",
                             "text/html; charset=utf-8")
        if prefix == "big":
            if points > 4000:
                pad = "x" * (17 << 20)
                return self.send(200, '{"status":"success","pad":"%s"}' % pad)
            return self.send(200, self.result(q))
        if prefix == "auth":
            if not self.authorized():
                return self.send(401, "Unauthorized\n", "text/plain")
            return self.send(200, self.result(q))
        return self.send(404, "404 page not found\n", "text/plain; charset=utf-8")


def main():
    Handler.series = load(sys.argv[2])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # Renamed into place, so a reader never sees half a number.
    with open(sys.argv[1] + ".tmp", "w", encoding="utf-8") as fh:
        fh.write(str(server.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
