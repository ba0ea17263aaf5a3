"""baseline.py - the catalog as `gpushare gpus/instances --format json` print it, and the
first-fit-decreasing baseline of the benchmarks (tests/bench/README.md, "FFD").

Python 3 standard library only. The fleets come from fleet.py's structures, so nothing is
parsed here but the tool's JSON."""

import json
import math
import subprocess

PPM = 1000000
GIB = 1 << 30


def tool_json(gpushare, *args):
    out = subprocess.run([gpushare] + list(args) + ["--format", "json"], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


class Catalog:
    """GPU capacities and instance prices of one gpushare binary."""

    def __init__(self, gpushare):
        self.gpus = tool_json(gpushare, "gpus")
        self.instances = tool_json(gpushare, "instances")
        self.by_name = {}
        for g in self.gpus:
            for nm in [g["name"]] + g.get("aliases", []):
                self.by_name.setdefault(nm.lower(), g)

    def gpu(self, name):
        return self.by_name[name.lower()]

    def usable_json(self):
        """The gpus JSON with memory_gib set to the usable memory, for optimum.py and
        check_plan.py (--gpu-json): they read memory_gib as what a GPU offers."""
        out = []
        for g in self.gpus:
            e = dict(g)
            e["memory_gib"] = g["usable_memory_gib"]
            out.append(e)
        return out

    def market(self, cloud, pricing):
        """model name -> (cheapest price per GPU, that instance, its GPU count), amd64. Of
        instances at the same price per GPU, the one with fewer GPUs: buying by count
        then rounds up the least (p5.4xlarge, not p5.48xlarge, for 20 H100s)."""
        key = "spot_per_hour" if pricing == "spot" else "on_demand_per_hour"
        best = {}
        for t in self.instances:
            if t["cloud"] != cloud or t.get("arch", "amd64") != "amd64" or t.get(key) is None:
                continue
            per = t[key] / t["gpu_count"]
            cur = best.get(t["gpu"])
            if cur is None or (per, t["gpu_count"], t["instance"]) < \
                    (cur[0], cur[2], cur[1]["instance"]):
                best[t["gpu"]] = (per, t, t["gpu_count"])
        return best


def plan_figures(out):
    """A plan JSON file's cost per hour, lower bound and gap in percent (from the bound when
    the plan gives none), and the whole document."""
    with open(out) as f:
        doc = json.load(f)
    cost = doc["cost"]
    lb = cost.get("lower_bound_per_hour")
    gap = cost.get("gap_percent")
    if gap is None and lb:
        gap = 100.0 * (cost["after_per_hour"] / lb - 1.0)
    return cost["after_per_hour"], lb, gap, doc


def parse_fleet(head, wls):
    """fleet.py's structures -> (settings, workload dicts)."""
    st = {"cloud": "aws", "pricing": "on-demand", "gpus": None, "target": 0.9}
    for line in head:
        k, v = line.split(": ", 1)
        if k == "gpus":
            st["gpus"] = [x.strip() for x in v.strip("[]").split(",")]
        elif k in ("cloud", "pricing"):
            st[k] = v
        elif k == "targetUtilization":
            st["target"] = int(v.rstrip("%")) / 100.0
    out = []
    for pairs in wls:
        w = dict(pairs)
        m = w["gpuMemory"]
        w["mem"] = int(round(float(m[:-3]) * GIB))
        w["ppm"] = int(w["compute"][:-1]) * 10000
        w["replicas"] = int(w["replicas"])
        out.append(w)
    return st, out


def convert(cat, w, model):
    """Compute share (ppm) on `model`: by memory bandwidth for inference (its default
    bound), else by FP16 throughput; rounded up."""
    on = w.get("measuredOn")
    if not on:
        return w["ppm"]
    a, b = cat.gpu(on), cat.gpu(model["name"])
    fa, fb = a["relative_throughput"], b["relative_throughput"]
    if w.get("kind", "inference") == "inference" and a.get("memory_bandwidth_gbs") and \
            b.get("memory_bandwidth_gbs"):
        fa, fb = a["memory_bandwidth_gbs"], b["memory_bandwidth_gbs"]
    num = w["ppm"] * int(round(fa * 1000))
    den = int(round(fb * 1000))
    return -(-num // den)


def must_be_alone(w):
    """Fault isolation, and what gpushare-workloads(5) ADVICE never time-slices."""
    if w.get("isolation") == "fault":
        return True
    kind = w.get("kind", "inference")
    if kind == "inference" and w.get("latency") == "critical" and w["ppm"] >= 500000:
        return True
    return kind in ("batch", "training") and w["ppm"] >= 700000


def ffd(cat, head, wls, headroom=0.0):
    """First-fit decreasing. Returns (cost per hour, GPUs, {model: GPUs}).

    headroom: the share of usable memory kept free on a GPU that several replicas share
    (0 under the rules optimum.py models; gpushare's default is 0.1)."""
    st, ws = parse_fleet(head, wls)
    mk = cat.market(st["cloud"], st["pricing"])
    allowed = None
    if st["gpus"]:
        allowed = set(cat.gpu(g)["name"] for g in st["gpus"])
    models = sorted((cat.by_name[n.lower()] for n in mk
                     if n.lower() in cat.by_name and (allowed is None or n in allowed)),
                    key=lambda g: (mk[g["name"]][0], g["name"]))
    target = int(round(st["target"] * PPM))
    groups = {}      # (model, tenant) -> [(key, mem, ppm, workload index)]
    alone = {}
    for i, w in enumerate(ws):
        for g in models:
            mem_cap = int(round(g["usable_memory_gib"] * GIB))
            c = convert(cat, w, g)
            if w["mem"] <= mem_cap and c <= PPM:
                break
        else:
            raise ValueError("workload %s fits no model" % w["name"])
        share_cap = int(mem_cap * (1.0 - headroom))
        if must_be_alone(w) or c > target or w["mem"] > share_cap:
            alone[g["name"]] = alone.get(g["name"], 0) + w["replicas"]
            continue
        key = max(w["mem"] / mem_cap, c / PPM)
        groups.setdefault((g["name"], w.get("tenant", "default")), []).extend(
            [(key, w["mem"], c, i)] * w["replicas"])
    per_model = dict(alone)
    for (name, _), items in sorted(groups.items()):
        g = cat.gpu(name)
        cap = int(int(round(g["usable_memory_gib"] * GIB)) * (1.0 - headroom))
        per_model[name] = per_model.get(name, 0) + _first_fit(items, cap, target, ws)
    cost = 0.0
    for name, n in per_model.items():
        per, t, k = mk[name]
        key = "spot_per_hour" if st["pricing"] == "spot" else "on_demand_per_hour"
        cost += math.ceil(n / k) * t[key]
    return cost, sum(per_model.values()), per_model


def _first_fit(items, mem_cap, cpu_cap, ws):
    """GPUs one (model, tenant) needs: items in decreasing key order (stable), each into
    the first open GPU where memory, compute and spread allow. Bins that cannot take even
    the smallest item still to come are dropped from the scan (they could never take one):
    the result is the plain first fit's, only faster."""
    items = sorted(items, key=lambda it: -it[0])
    n = len(items)
    min_mem = [0] * (n + 1)
    min_cpu = [0] * (n + 1)
    min_mem[n] = min_cpu[n] = 1 << 62
    for j in range(n - 1, -1, -1):
        min_mem[j] = min(min_mem[j + 1], items[j][1])
        min_cpu[j] = min(min_cpu[j + 1], items[j][2])
    bins = []        # [free memory, free compute, set of spread workloads]
    opened = 0
    for j, (_, mem, cpu, wi) in enumerate(items):
        spread = ws[wi].get("spread", "none") != "none"
        placed = False
        for b in bins:
            if b[0] >= mem and b[1] >= cpu and not (spread and wi in b[2]):
                b[0] -= mem
                b[1] -= cpu
                if spread:
                    b[2].add(wi)
                placed = True
                break
        if not placed:
            bins.append([mem_cap - mem, cpu_cap - cpu, {wi} if spread else set()])
            opened += 1
        if j % 64 == 63:
            mm, mc = min_mem[j + 1], min_cpu[j + 1]
            bins = [b for b in bins if b[0] >= mm and b[1] >= mc]
    return opened
