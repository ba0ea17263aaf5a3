#!/usr/bin/env python3
"""fleet.py - seeded workload files for the planner benchmarks (tests/bench/README.md).

  fleet.py CLASS REPLICAS SEED OUT.yaml

CLASS is ts, hetero, mig, mixed, varied or migx. The same class, size and seed always
give the same bytes (Python's random.Random seeded with a string, which hashes it with
SHA-512 and so does not depend on PYTHONHASHSEED). Next to OUT.yaml it writes
OUT.yaml.meta.json, {"class": C}, which optimum.py reads to choose its formulation: C is
CLASS, but hetero for varied and mig for migx, the formulations those classes take.

The files use only the keys that gpushare-workloads(5) and the measuring tools both read,
so the same file goes to `gpushare plan` and to optimum.py / check_plan.py."""

import json
import math
import random
import sys

CLASSES = ("ts", "hetero", "mig", "mixed", "varied", "migx")

# The sidecar's class of the classes optimum.py does not name: the formulation it takes.
FORMULATION = {"varied": "hetero", "migx": "mig"}

# Usable memory (GiB) of the models the classes use, as `gpushare gpus` prints it. Only
# used to shape the draws (shares of a GPU); the planner reads its own catalog.
USABLE = {"A10G": 22.19, "L4": 21.95, "T4": 14.62}

# MIG profiles (1g..4g of the classic set): memory GiB and share of the GPU's SMs, as
# `gpushare gpus` prints them. A replica is drawn to fit its target profile.
MIG = {
    "H100-SXM5-80GB": ("aws", [("1g", 9.75, 16 / 132), ("2g", 19.62, 32 / 132),
                               ("3g", 39.5, 60 / 132), ("4g", 39.5, 64 / 132)]),
    "A100-SXM4-40GB": ("gcp", [("1g", 4.75, 14 / 108), ("2g", 9.62, 28 / 108),
                               ("3g", 19.5, 42 / 108), ("4g", 19.5, 56 / 108)]),
}


# migx: the MIG models of two clouds, each with all five base profiles (memory GiB,
# share of the SMs) as `gpushare gpus` prints them, drawn small first.
MIGX = {
    "H100-SXM5-80GB": ("aws", [(9.75, 16 / 132), (19.62, 32 / 132), (39.5, 60 / 132),
                               (39.5, 64 / 132), (79.25, 132 / 132)]),
    "A100-SXM4-40GB": ("gcp", [(4.75, 14 / 108), (9.62, 28 / 108), (19.5, 42 / 108),
                               (19.5, 56 / 108), (39.25, 98 / 108)]),
    "A100-SXM4-80GB": ("gcp", [(9.5, 14 / 108), (19.5, 28 / 108), (39.25, 42 / 108),
                               (39.25, 56 / 108), (78.75, 98 / 108)]),
}


def mem_text(gib):
    """Quarter-GiB steps, at least a quarter: '7.25GiB', '12GiB'."""
    q = max(1, int(math.floor(gib * 4 + 1e-9)))
    if q % 4:
        return "%d.%02dGiB" % (q // 4, q % 4 * 25)
    return "%dGiB" % (q // 4)


def pct(x):
    """A whole percent from 1 to 100."""
    return "%d%%" % min(100, max(1, int(x)))


def pick(r, table):
    """table: [(weight, value)]."""
    u = r.random() * sum(w for w, _ in table)
    for w, v in table:
        if u < w:
            return v
        u -= w
    return table[-1][1]


def split(r, n, most=8):
    """Workload sizes of 1 to `most` replicas adding up to exactly n (the last one cut)."""
    out = []
    left = n
    while left > 0:
        k = min(left, r.randint(1, most))
        out.append(k)
        left -= k
    return out


def archetype(r, mem_cap):
    """Memory-heavy, compute-heavy or small: a balanced time-slicing fleet, where the best
    GPUs hold one of each (memory GiB, compute %)."""
    a = r.randrange(3)
    if a == 0:
        return r.uniform(0.40, 0.65) * mem_cap, r.uniform(5, 25)
    if a == 1:
        return r.uniform(0.08, 0.25) * mem_cap, r.uniform(30, 55)
    return r.uniform(0.10, 0.30) * mem_cap, r.uniform(8, 25)


def gen_ts(r, n):
    model = r.choice(sorted(USABLE))
    tenants = r.randint(1, 3)
    head = ["cloud: aws", "pricing: on-demand", "gpus: [%s]" % model]
    wls = []
    for i, k in enumerate(split(r, n)):
        mem, comp = archetype(r, USABLE[model])
        w = [("name", "w%03d" % i),
             ("kind", pick(r, [(40, "inference"), (25, "batch"), (20, "notebook"),
                               (15, "ci")])),
             ("replicas", str(k)), ("gpuMemory", mem_text(mem)), ("compute", pct(comp))]
        if r.random() < 0.5:
            w.append(("measuredOn", model))
        w.append(("tenant", "t%d" % r.randrange(tenants)))
        if r.random() < 0.05:
            w.append(("isolation", "fault"))
        elif k > 1 and w[1][1] == "inference" and r.random() < 0.15:
            w.append(("spread", "gpu"))
        wls.append(w)
    return head, wls


def gen_hetero(r, n):
    """Compute-bound kinds only: their compute converts by FP16 throughput, as the tools
    convert it (inference converts by memory bandwidth in gpushare)."""
    models = ["L4", "T4", "A10G"]
    tenants = r.randint(1, 3)
    head = ["cloud: aws", "pricing: on-demand", "gpus: [L4, T4, A10G]"]
    wls = []
    for i, k in enumerate(split(r, n)):
        mem, comp = archetype(r, 16.0)
        if r.random() < 0.15:          # only fits the 24 GB models
            mem = r.uniform(15.0, 20.0)
        w = [("name", "w%03d" % i),
             ("kind", pick(r, [(35, "batch"), (25, "notebook"), (20, "ci"),
                               (20, "training")])),
             ("replicas", str(k)), ("gpuMemory", mem_text(mem)), ("compute", pct(comp)),
             ("measuredOn", r.choice(models)), ("tenant", "t%d" % r.randrange(tenants))]
        if r.random() < 0.05:
            w.append(("isolation", "fault"))
        wls.append(w)
    return head, wls


def gen_mig(r, n, seed):
    model = sorted(MIG)[seed % 2]
    cloud, profiles = MIG[model]
    tenants = r.randint(1, 3)
    head = ["cloud: %s" % cloud, "pricing: on-demand", "gpus: [%s]" % model]
    wls = []
    for i, k in enumerate(split(r, n)):
        _, gib, share = pick(r, [(40, profiles[0]), (30, profiles[1]), (20, profiles[2]),
                                 (10, profiles[3])])
        w = [("name", "w%03d" % i),
             ("kind", pick(r, [(40, "inference"), (30, "batch"), (15, "notebook"),
                               (15, "ci")])),
             ("replicas", str(k)), ("gpuMemory", mem_text(r.uniform(0.5, 1.0) * gib)),
             ("compute", pct(r.uniform(0.3, 1.0) * share * 100)),
             ("isolation", "fault"), ("tenant", "t%d" % r.randrange(tenants))]
        wls.append(w)
    return head, wls


def gen_varied(r, n):
    """Sharing fleets drawn more freely than ts and hetero, in the rules optimum.py models:
    one to three of the AWS models, targetUtilization 70 to 100 %, on-demand or spot, one
    to four tenants, up to 12 replicas a workload, memory up to 90 % of the smallest model,
    compute up to 100 %, spread: gpu and node, fault isolation. Two of gpushare's rules are
    kept out, as the tools do not read them: a batch or training workload at 70 % or more
    is drawn as a notebook (gpushare never time-slices those: the study's rule,
    must_be_alone in baseline.py), and inference is drawn on one model only (gpushare
    converts it between models by memory bandwidth, the tools by FP16 throughput)."""
    models = sorted(r.sample(sorted(USABLE), r.randint(1, 3)))
    cap = min(USABLE[m] for m in models)
    tenants = r.randint(1, 4)
    head = ["cloud: aws", "pricing: %s" % pick(r, [(3, "on-demand"), (1, "spot")]),
            "targetUtilization: %d%%" % r.choice([70, 80, 90, 90, 100]),
            "gpus: [%s]" % ", ".join(models)]
    kinds = ["batch", "notebook", "ci", "training"]
    if len(models) == 1:
        kinds.append("inference")
    wls = []
    for i, k in enumerate(split(r, n, 12)):
        gib = r.uniform(0.3, 0.9 * cap) if r.random() < 0.7 else r.uniform(0.05, 0.3) * cap
        comp = r.uniform(2, 70) if r.random() < 0.8 else r.uniform(70, 100)
        kind = r.choice(kinds)
        if comp >= 70 and kind in ("batch", "training"):
            kind = "notebook"
        w = [("name", "w%03d" % i), ("kind", kind), ("replicas", str(k)),
             ("gpuMemory", mem_text(gib)), ("compute", pct(comp)),
             ("tenant", "t%d" % r.randrange(tenants))]
        if r.random() < 0.6:
            w.append(("measuredOn", r.choice(models)))
        u = r.random()
        if u < 0.08:
            w.append(("isolation", "fault"))
        elif u < 0.2 and k > 1:
            w.append(("spread", "gpu"))
        elif u < 0.25 and k > 1:
            w.append(("spread", "node"))
        wls.append(w)
    return head, wls


def gen_migx(r, n):
    """Fault-isolated fleets on one of three MIG models in two clouds, every base profile
    up to the whole GPU in play, targetUtilization 80 to 100 %, on-demand or spot, one to
    four tenants, up to 10 replicas a workload."""
    model = r.choice(sorted(MIGX))
    cloud, profiles = MIGX[model]
    tenants = r.randint(1, 4)
    head = ["cloud: %s" % cloud, "pricing: %s" % pick(r, [(2, "on-demand"), (1, "spot")]),
            "targetUtilization: %d%%" % r.choice([80, 90, 100]), "gpus: [%s]" % model]
    wls = []
    for i, k in enumerate(split(r, n, 10)):
        gib, share = pick(r, list(zip([50, 25, 15, 7, 3], profiles)))
        w = [("name", "w%03d" % i),
             ("kind", r.choice(["inference", "batch", "notebook", "ci"])),
             ("replicas", str(k)), ("gpuMemory", mem_text(r.uniform(0.3, 1.0) * gib)),
             ("compute", pct(r.uniform(0.2, 0.98) * share * 100)),
             ("isolation", "fault"), ("tenant", "t%d" % r.randrange(tenants))]
        wls.append(w)
    return head, wls


def gen_mixed(r, n):
    """bench.c's distributions (tests/bench/README.md), on AWS, every model allowed."""
    tenants = max(1, int(round(math.sqrt(n / 4.5) / 2)))
    head = ["cloud: aws", "pricing: on-demand"]
    kinds = [(45, "inference"), (20, "batch"), (15, "notebook"), (10, "ci"), (10, "training")]
    ons = [(50, "A10G"), (15, "L4"), (10, "T4"), (25, None)]
    rnd = r.random
    wls = []
    for i, k in enumerate(split(r, n)):
        kind = pick(r, kinds)
        w = [("name", "w%07d" % i), ("kind", kind), ("replicas", str(k)),
             ("gpuMemory", mem_text(1 + 39 * rnd() ** 3)),
             ("compute", pct(3 + 88 * rnd() ** 2)), ("tenant", "t%d" % r.randrange(tenants))]
        if rnd() < 0.10:
            w.append(("isolation", "fault"))
        if rnd() < 0.10:
            w.append(("latency", "critical"))
        on = pick(r, ons)
        if on:
            w.append(("measuredOn", on))
        if kind == "inference" and k > 1 and r.randrange(3) == 0:
            w.append(("spread", "gpu"))
        wls.append(w)
    return head, wls


def generate_fleet(cls, n, seed):
    """(head, workloads): head a list of 'key: value' lines, each workload a list of
    (key, text) pairs in file order."""
    r = random.Random("gpushare-bench/%s/%d/%d" % (cls, n, seed))
    if cls == "ts":
        return gen_ts(r, n)
    if cls == "hetero":
        return gen_hetero(r, n)
    if cls == "mig":
        return gen_mig(r, n, seed)
    if cls == "varied":
        return gen_varied(r, n)
    if cls == "migx":
        return gen_migx(r, n)
    return gen_mixed(r, n)


def render(cls, n, seed, head, wls):
    """The file's text."""
    out = ["# tests/bench/fleet.py %s %d %d" % (cls, n, seed), "version: 1"] + head
    out.append("workloads:")
    for w in wls:
        out.append("  - " + "\n    ".join("%s: %s" % kv for kv in w))
    return "\n".join(out) + "\n"


def generate(cls, n, seed):
    head, wls = generate_fleet(cls, n, seed)
    return render(cls, n, seed, head, wls)


def write(cls, n, seed, path):
    """Writes the file and its sidecar; returns (head, workloads)."""
    head, wls = generate_fleet(cls, n, seed)
    with open(path, "w") as f:
        f.write(render(cls, n, seed, head, wls))
    with open(path + ".meta.json", "w") as f:
        f.write(json.dumps({"class": FORMULATION.get(cls, cls)}) + "\n")
    return head, wls


def main(argv):
    if len(argv) != 5 or argv[1] not in CLASSES:
        sys.stderr.write("usage: fleet.py ts|hetero|mig|mixed|varied|migx REPLICAS SEED "
                         "OUT.yaml\n")
        return 2
    try:
        n, seed = int(argv[2]), int(argv[3])
    except ValueError:
        sys.stderr.write("fleet.py: REPLICAS and SEED are whole numbers\n")
        return 2
    if n < 1 or seed < 0:
        sys.stderr.write("fleet.py: REPLICAS >= 1, SEED >= 0\n")
        return 2
    write(argv[1], n, seed, argv[4])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
