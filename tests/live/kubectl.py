#!/usr/bin/env python3
"""kubectl.py - a fake Kubernetes API server for tests/live/kubectl.sh.

Serves what the real kubectl asks for to run `get nodes -o json` and
`get pods -A -o json` (found with `kubectl -v=8`): /version, the legacy
discovery documents /api, /apis and /api/v1, then /api/v1/nodes and
/api/v1/pods as the API server does: NodeList and PodList, items without
their kind and apiVersion (kubectl adds them back), in pages of --page
items joined by `continue` tokens, so kubectl merges several responses.

Under the path prefix /fail500 (a cluster whose server URL ends in it), the
pod list answers 500 with a Status, as an API server whose etcd is down.

  kubectl.py --nodes FILE --pods FILE --port-file FILE [--page N]

It listens on 127.0.0.1 on a free port and writes the port to --port-file
once it listens.
"""
import argparse
import http.server
import json
import os
import sys
import urllib.parse

DISCOVERY = {
    "/api": {"kind": "APIVersions", "versions": ["v1"],
             "serverAddressByClientCIDRs": [
                 {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:443"}]},
    "/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": []},
    "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
        {"name": "nodes", "singularName": "node", "namespaced": False, "kind": "Node",
         "verbs": ["get", "list", "watch"], "shortNames": ["no"]},
        {"name": "pods", "singularName": "pod", "namespaced": True, "kind": "Pod",
         "verbs": ["get", "list", "watch"], "shortNames": ["po"],
         "categories": ["all"]}]},
    "/version": {"major": "1", "minor": "32", "gitVersion": "v1.32.4",
                 "platform": "linux/amd64"},
}


def load_items(path):
    with open(path) as f:
        items = json.load(f)["items"]
    for it in items:  # the API server's lists leave them out
        it.pop("kind", None)
        it.pop("apiVersion", None)
    return items


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send_json(self, code, doc):
        body = json.dumps(doc).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        failing = path.startswith("/fail500")
        if failing:
            path = path[len("/fail500"):]
        if path in DISCOVERY:
            return self.send_json(200, DISCOVERY[path])
        kind = {"/api/v1/nodes": "NodeList", "/api/v1/pods": "PodList"}.get(path)
        if not kind:
            return self.send_json(404, {"kind": "Status", "apiVersion": "v1",
                                        "status": "Failure", "reason": "NotFound",
                                        "message": "the server could not find the "
                                                   "requested resource", "code": 404})
        if failing and kind == "PodList":
            return self.send_json(500, {"kind": "Status", "apiVersion": "v1",
                                        "metadata": {}, "status": "Failure",
                                        "message": "etcdserver: request timed out",
                                        "reason": "InternalError", "code": 500})
        items = self.server.lists[kind]
        start = int(query.get("continue", ["0"])[0])
        size = min(int(query.get("limit", ["500"])[0]), self.server.page)
        meta = {"resourceVersion": "4242"}
        if start + size < len(items):
            meta["continue"] = str(start + size)
        self.send_json(200, {"kind": kind, "apiVersion": "v1", "metadata": meta,
                             "items": items[start:start + size]})

    def log_message(self, fmt, *args):
        if os.environ.get("FAKE_API_LOG"):
            sys.stderr.write("fake-api: %s\n" % (fmt % args))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nodes", required=True)
    p.add_argument("--pods", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--page", type=int, default=7)
    a = p.parse_args()
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.lists = {"NodeList": load_items(a.nodes), "PodList": load_items(a.pods)}
    srv.page = a.page
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, a.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
