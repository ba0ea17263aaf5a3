#!/usr/bin/env python3
"""sum.py - gpushare cost adds up: the rows and idle equal the nodes' prices.

  python3 tests/cost/sum.py BIN      (from the top of the tree)

Independently of gpushare, it finds the GPU nodes of each node list (a
gpu-feature-discovery product label, or nvidia.com/gpu, gpu.shared or mig-*
capacity) and their on-demand prices in profiles/instances/*.yaml, and
checks, in exact decimals:

  1. every golden CLI case tests/cli/cases/cost_*.cmd whose output is JSON
     or CSV: sum(rows.cost_per_hour) + idle_per_hour == total_per_hour ==
     the sum of its GPU nodes' prices (the CSV's cost column, __idle__ row
     included, sums to the same), and each node's holders and idle add up
     to its price;
  2. the same of BIN cost --format json|csv on every cluster fixture under
     option sets that give each value of --by, --basis, --mig-share,
     --gpu-weight and --spread-idle at least once (tests/unit/test_cost.c
     runs every combination through the library).

Prints one line per problem and "cost: N checks, M failed"; exits 1 on any.
"""
import csv
import glob
import io
import json
import os
import shlex
import subprocess
import sys
from decimal import Decimal

import yaml

TOP = os.getcwd()
FIXTURES = os.path.join(TOP, "tests", "fixtures", "cost")
IMPORT = os.path.join(TOP, "tests", "fixtures", "import")
CLUSTERS = [
    ["--nodes", f"{FIXTURES}/nodes.json", "--pods", f"{FIXTURES}/pods.json"],
    ["--nodes", f"{FIXTURES}/nodes.json", "--pods", f"{FIXTURES}/pods.json",
     "-m", f"{FIXTURES}/range.json"],
    ["--nodes", f"{FIXTURES}/dra-nodes.json", "--pods", f"{FIXTURES}/dra-pods.json",
     "--claims", f"{FIXTURES}/dra-claims.json", "--team-label", "team"],
    ["--nodes", f"{IMPORT}/nodes.json", "--pods", f"{IMPORT}/pods.json",
     "-m", f"{IMPORT}/t4-a-1.prom", "-m", f"{IMPORT}/a100-mixed.prom",
     "-m", f"{IMPORT}/range.json"],
    ["--nodes", f"{IMPORT}/nodes-no-gfd.json", "--pods", f"{IMPORT}/pods.json"],
]


def prices():
    """Instance type -> on-demand price, from the shipped profiles."""
    out = {}
    for path in glob.glob(os.path.join(TOP, "profiles", "instances", "*.yaml")):
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        for it in doc.get("instances", []):
            out[it["type"]] = Decimal(str(it["on_demand"]))
    return out


def gpu_resource(name):
    return name in ("nvidia.com/gpu", "nvidia.com/gpu.shared") or \
        name.startswith("nvidia.com/mig-")


def node_prices(paths, table):
    """The GPU nodes of the lists and their prices (None: unknown)."""
    out = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for it in doc.get("items", [doc]):
            meta = it.get("metadata", {})
            labels = meta.get("labels", {}) or {}
            status = it.get("status", {}) or {}
            has = any(gpu_resource(k) and str(v).isdigit() and int(v) > 0
                      for part in ("capacity", "allocatable")
                      for k, v in (status.get(part) or {}).items())
            if "nvidia.com/gpu.product" not in labels and not has:
                continue
            kind = labels.get("node.kubernetes.io/instance-type") or \
                labels.get("beta.kubernetes.io/instance-type")
            out[meta["name"]] = table.get(kind)
    return out


def money(v):
    return Decimal("0") if v is None else Decimal(str(v))


def check_json(text, nodes, where):
    bad = []
    doc = json.loads(text, parse_float=Decimal)
    total = sum((p for p in nodes.values() if p is not None), Decimal(0))
    rows = sum((money(r["cost_per_hour"]) for r in doc["rows"]), Decimal(0))
    if rows + money(doc["idle_per_hour"]) != total:
        bad.append(f"{where}: rows {rows} + idle {doc['idle_per_hour']} != "
                   f"the nodes' prices {total}")
    if money(doc["total_per_hour"]) != total:
        bad.append(f"{where}: total_per_hour {doc['total_per_hour']} != {total}")
    for n in doc["nodes"]:
        want = nodes.get(n["name"], "missing")
        if want == "missing":
            bad.append(f"{where}: node {n['name']} is not a GPU node of the list")
            continue
        held = sum((money(h["cost_per_hour"]) for h in n["holders"]), Decimal(0))
        got = held + money(n["idle_per_hour"])
        if (want is None and got != 0) or (want is not None and got != want):
            bad.append(f"{where}: node {n['name']}: holders {held} + idle "
                       f"{n['idle_per_hour']} != its price {want}")
    if len(doc["nodes"]) != len(nodes):
        bad.append(f"{where}: {len(doc['nodes'])} nodes, the lists have {len(nodes)}")
    return bad


def check_csv(text, nodes, where):
    total = sum((p for p in nodes.values() if p is not None), Decimal(0))
    rows = list(csv.DictReader(io.StringIO(text)))
    got = sum((Decimal(r["cost_per_hour"]) for r in rows), Decimal(0))
    bad = []
    if not rows or rows[-1]["namespace"] != "__idle__":
        bad.append(f"{where}: the last row is not __idle__")
    if got != total:
        bad.append(f"{where}: the cost column adds up to {got}, not {total}")
    return bad


def node_args(args):
    """The --nodes files of an argument list."""
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--nodes"]


def goldens(table):
    checks, bad = 0, []
    cases = os.path.join(TOP, "tests", "cli", "cases")
    for cmd in sorted(glob.glob(os.path.join(cases, "cost_*.cmd"))):
        out = cmd[:-4] + ".out"
        with open(cmd, encoding="utf-8") as f:
            line = f.readline().strip()
        line = line.replace("$REPO", TOP).replace("$FIXTURES",
                                                  os.path.join(TOP, "tests/cli/fixtures"))
        args = shlex.split(line)
        if "--nodes" not in args or not os.path.exists(out) or os.path.getsize(out) == 0:
            continue
        with open(out, encoding="utf-8") as f:
            text = f.read()
        nodes = node_prices(node_args(args), table)
        name = os.path.basename(cmd)[:-4]
        if "json" in args:
            checks += 1
            bad += check_json(text, nodes, name)
        elif "csv" in args:
            checks += 1
            bad += check_csv(text, nodes, name)
    return checks, bad


OPTION_SETS = [
    [],
    ["--by", "namespace", "--mig-share", "memory"],
    ["--by", "team", "--mig-share", "compute", "--spread-idle"],
    ["--basis", "usage", "--gpu-weight", "90"],
    ["--basis", "usage", "--by", "team", "--gpu-weight", "0", "--spread-idle"],
    ["--gpu-weight", "90", "--spread-idle", "--mig-share", "memory"],
    ["--by", "namespace", "--basis", "usage", "--mig-share", "compute", "--gpu-weight", "50"],
]


def matrix(binary, table):
    checks, bad = 0, []
    for opts in OPTION_SETS:
        for cluster in CLUSTERS:
            nodes = node_prices(node_args(cluster), table)
            args = [binary, "cost", *cluster, *opts]
            where = " ".join(args[2:])
            for fmt, check in (("json", check_json), ("csv", check_csv)):
                r = subprocess.run(args + ["--format", fmt], capture_output=True, text=True)
                checks += 1
                if r.returncode != 0:
                    bad.append(f"{where}: exit {r.returncode}: {r.stderr.strip()}")
                    continue
                bad += check(r.stdout, nodes, f"{fmt} {where}")
    return checks, bad


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    table = prices()
    n1, bad1 = goldens(table)
    n2, bad2 = matrix(os.path.abspath(argv[1]), table)
    for b in bad1 + bad2:
        print("cost: " + b)
    print(f"cost: {n1 + n2} checks ({n1} goldens), {len(bad1) + len(bad2)} failed")
    return 1 if bad1 or bad2 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
