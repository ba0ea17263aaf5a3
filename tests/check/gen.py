#!/usr/bin/env python3
"""gen.py - seeded random workload files for gpushare plan.

usage: gen.py SEED [OUT.yaml]          one file (stdout without OUT)
       gen.py --dir DIR FIRST LAST     seeds FIRST..LAST as DIR/case-SEED.yaml

The same seed always gives the same file.  The YAML is written by hand,
keeping to the workload-file schema (version 1): cloud, pricing, via,
targetUtilization, instances, gpus and workloads with name, kind, replicas,
gpuMemory, compute, measuredOn, latency, isolation, tenant, team, gpus and
spread; memoryHeadroom (file and workload) and bound, drawn from a second
generator, the host keys cpu, memory and arch from a third, and
gpusPerReplica (with, sometimes, placement: pinned for such a file) from a
fourth, and a top-level fractions list (one seed in three, half of those
with swarms of small replicas) from a fifth, so that the other keys stay
what they were for a seed and a file without fractions is byte for byte
what it was before them. Python 3 standard
library only.
"""

import os
import random
import sys

KINDS = ["inference", "batch", "training", "notebook", "ci"]
MEASURED = ["T4", "A10G", "A100-SXM4-40GB"]
CLOUDS = ["aws", "gcp", "azure", "all"]
# MIG models, and the clouds that sell each on demand and on spot (so that
# most allow-lists can be met)
MIG_MODELS = {
    "A100-SXM4-40GB": ({"aws", "gcp", "azure"}, {"aws", "gcp", "azure"}),
    "A100-SXM4-80GB": ({"aws", "gcp", "azure"}, {"aws", "gcp", "azure"}),
    "A100-PCIE-80GB": ({"azure"}, {"azure"}),
    "H100-SXM5-80GB": ({"aws", "gcp", "azure"}, {"aws", "gcp"}),
    "H100-NVL-94GB": ({"azure"}, set()),
    "H200-SXM-141GB": ({"aws"}, {"aws"}),
    "B200": ({"aws"}, {"aws"}),
}
# instance globs per cloud, with the GPU models they match (spot: the
# models they match with a spot price)
GLOBS = {
    "aws": {"g4dn.*": "T4", "g5.*": "A10G", "g5g.*": "T4G", "g6.*": "L4",
            "g6e.*": "L40S", "p3.*": "V100-SXM2-16GB",
            "p4d.*": "A100-SXM4-40GB", "p4de.*": "A100-SXM4-80GB",
            "p5.*": "H100-SXM5-80GB", "p5en.*": "H200-SXM-141GB",
            "p6-b200.*": "B200"},
    "gcp": {"a2-highgpu-*": "A100-SXM4-40GB", "a2-ultragpu-*": "A100-SXM4-80GB",
            "a3-*": "H100-SXM5-80GB", "g2-standard-*": "L4",
            "n1-standard-*": "T4 V100-SXM2-16GB"},
    "azure": {"Standard_NC*": "V100-PCIE-16GB T4 A100-PCIE-80GB H100-NVL-94GB",
              "Standard_ND*": "A100-SXM4-40GB A100-SXM4-80GB H100-SXM5-80GB",
              "Standard_NV*": "A10"},
}
NO_SPOT = {("azure", "H100-NVL-94GB"), ("azure", "H100-SXM5-80GB")}


def glob_models(glob, spot):
    for cloud, globs in GLOBS.items():
        if glob in globs:
            return {m for m in globs[glob].split()
                    if not (spot and (cloud, m) in NO_SPOT)}
    return set()


WORDS = ["chat", "rank", "embed", "ocr", "asr", "tts", "vision", "search",
         "fraud", "train", "eval", "etl", "lab", "ci", "sum", "tag"]
TENANTS = ["acme", "globex", "initech", "default"]
TEAMS = ["search", "data", "research", "platform", "ml"]


def q(s):
    return '"%s"' % s


CPUS = ["250m", "500m", "1", "2", "4", "8", "1.5"]
HOST_MEMS = ["1GiB", "2GiB", "6GiB", "12GiB", "18GiB", "30GiB", "60GiB", "512Mi"]


def host_keys(hrnd):
    """cpu, memory and arch of one workload, each often left out."""
    w = []
    if hrnd.random() < 0.35:
        w.append("    cpu: %s" % q(hrnd.choice(CPUS)))
    if hrnd.random() < 0.35:
        w.append("    memory: %s" % hrnd.choice(HOST_MEMS))
    r = hrnd.random()
    if r < 0.1:
        w.append("    arch: any")
    elif r < 0.11:
        w.append("    arch: arm64")
    elif r < 0.16:
        w.append("    arch: amd64")
    return w


def wide_keys(mrnd):
    """gpusPerReplica of one workload, mostly left out."""
    if mrnd.random() < 0.12:
        return ["    gpusPerReplica: %d" % mrnd.choice([2, 2, 3, 4, 8])]
    return []


# The fractions lists drawn: dra and mps never together (a file error).
FRACTIONS = [["hami"], ["dra"], ["mps"], ["hami", "mps"], ["mps", "hami"],
             ["dra", "hami"]]


def fractions_line(frnd):
    """One file in three lists fractions."""
    if frnd.random() < 1 / 3:
        return "fractions: [%s]" % ", ".join(frnd.choice(FRACTIONS))
    return None


def swarm(frnd, tenants, first):
    """Half the files with fractions also get one or two swarms of small
    replicas (MiB sizes, computes with a decimal): many clients per GPU,
    near HAMi's 10 and SM limits rounded up towards 100 %."""
    w = []
    if frnd.random() >= 0.5:
        return w
    for k in range(frnd.randint(1, 2)):
        w += ["  - name: swarm-%s-%d" % (frnd.choice(WORDS), first + k),
              "    kind: %s" % frnd.choice(["notebook", "ci", "inference"]),
              "    object: {container: main}",
              "    replicas: %d" % frnd.randint(6, 24),
              "    gpuMemory: %dMiB" % frnd.randint(512, 3072),
              "    compute: %d.%d%%" % (frnd.randint(2, 11), frnd.randint(1, 9)),
              "    tenant: %s" % frnd.choice(tenants)]
    return w


def gen(seed):
    rnd = random.Random(seed)
    extra = random.Random(seed * 7919 + 1)
    hrnd = random.Random(seed * 7919 + 17)
    mrnd = random.Random(seed * 7919 + 31)
    wide = False
    cloud = rnd.choice(CLOUDS)
    pricing = rnd.choice(["on-demand", "on-demand", "spot"])
    target = rnd.choice([None, 70, 80, 85, 90, 95, 100])
    clouds = {"aws", "gcp", "azure"} if cloud == "all" else {cloud}
    lines = ["# gpushare random case, seed %d" % seed, "version: 1",
             "cloud: %s" % cloud, "pricing: %s" % pricing, "via: device-plugin"]
    if target is not None:
        lines.append("targetUtilization: %d%%" % target)
    if extra.random() < 0.3:
        lines.append("memoryHeadroom: %d%%" % extra.choice([0, 5, 10, 20, 35]))
    spot = pricing == "spot"
    globs = None
    if rnd.random() < 0.2:
        pool = [g for c in sorted(clouds) for g in GLOBS[c]]
        globs = rnd.sample(pool, min(len(pool), rnd.randint(2, 5)))
    mig_ok = sorted(m for m, cs in MIG_MODELS.items() if cs[1 if spot else 0] & clouds)
    if rnd.random() < 0.2:
        mig_ok = rnd.sample(mig_ok, rnd.randint(1, min(3, len(mig_ok))))
        lines_gpus = "gpus: [%s]" % ", ".join(mig_ok)
        if globs is not None and not any(glob_models(g, spot) & set(mig_ok) for g in globs):
            # top-level allow-lists that exclude each other are a file
            # error, not a workload's: keep one glob that fits
            pool = [g for c in sorted(clouds) for g in GLOBS[c]
                    if glob_models(g, spot) & set(mig_ok)]
            globs = globs + [rnd.choice(pool)] if pool else None
    else:
        lines_gpus = None
    if globs is not None:
        lines.append("instances: [%s]" % ", ".join(q(p) for p in globs))
    if lines_gpus:
        lines.append(lines_gpus)
    if hrnd.random() < 0.1:
        lines.append("arch: any")
    n_tenants = rnd.randint(1, 3)
    tenants = rnd.sample(TENANTS, n_tenants)
    lines.append("workloads:")
    n = rnd.randint(1, 7)
    used = set()
    for i in range(n):
        kind = rnd.choice(KINDS)
        name = "%s-%s-%d" % (rnd.choice(WORDS), kind[:3], i)
        used.add(name)
        w = ["  - name: %s" % name, "    kind: %s" % kind,
             "    object: {container: main}"]
        reps = rnd.randint(1, 6)
        if reps != 1 or rnd.random() < 0.5:
            w.append("    replicas: %d" % reps)
        mem = rnd.choice([rnd.randint(1, 8), rnd.randint(1, 20), rnd.randint(1, 40)])
        if rnd.random() < 0.2:
            w.append("    gpuMemory: %d.5GiB" % (mem - 1 if mem > 1 else 0))
        else:
            w.append("    gpuMemory: %dGiB" % mem)
        compute = rnd.choice([rnd.randint(5, 30), rnd.randint(5, 60), rnd.randint(5, 95)])
        w.append("    compute: %d%%" % compute)
        if rnd.random() < 0.85:
            w.append("    measuredOn: %s" % rnd.choice(MEASURED))
        if kind == "inference" and rnd.random() < 0.5 or rnd.random() < 0.1:
            w.append("    latency: critical")
        elif rnd.random() < 0.3:
            w.append("    latency: tolerant")
        if rnd.random() < 0.15:
            w.append("    isolation: fault")
        elif rnd.random() < 0.1:
            w.append("    isolation: none")
        tenant = rnd.choice(tenants)
        if tenant != "default" or rnd.random() < 0.5:
            w.append("    tenant: %s" % tenant)
        if rnd.random() < 0.7:
            w.append("    team: %s" % rnd.choice(TEAMS))
        if rnd.random() < 0.15:
            picks = rnd.sample(mig_ok, rnd.randint(1, min(2, len(mig_ok))))
            w.append("    gpus: [%s]" % ", ".join(picks))
        r = rnd.random()
        if r < 0.15:
            w.append("    spread: gpu")
        elif r < 0.3:
            w.append("    spread: node")
        elif r < 0.35:
            w.append("    spread: none")
        if extra.random() < 0.2:
            w.append("    memoryHeadroom: %d%%" % extra.choice([0, 5, 15, 30]))
        if extra.random() < 0.2:
            w.append("    bound: %s" % extra.choice(["compute", "memory-bandwidth"]))
        w.extend(host_keys(hrnd))
        more = wide_keys(mrnd)
        wide |= bool(more)
        w.extend(more)
        lines.extend(w)
    # Pinned placement lets other replicas fill a multi-GPU node.
    if wide and mrnd.random() < 0.3:
        lines.insert(lines.index("workloads:"), "placement: pinned")
    frnd = random.Random(seed * 7919 + 43)
    fr = fractions_line(frnd)
    if fr is not None:
        lines.insert(lines.index("workloads:"), fr)
        lines.extend(swarm(frnd, tenants, n))
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) == 5 and argv[1] == "--dir":
        d, first, last = argv[2], int(argv[3]), int(argv[4])
        os.makedirs(d, exist_ok=True)
        for s in range(first, last + 1):
            with open(os.path.join(d, "case-%d.yaml" % s), "w") as f:
                f.write(gen(s))
        return 0
    if len(argv) in (2, 3):
        text = gen(int(argv[1]))
        if len(argv) == 3:
            with open(argv[2], "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    sys.stderr.write(__doc__.strip() + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
