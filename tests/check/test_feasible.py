#!/usr/bin/env python3
"""test_feasible.py - feasible.py's rule 18 (fractions) against broken plans.

usage: python3 tests/check/test_feasible.py GPUSHARE [-v]

Plans three fixtures of tests/cli/fixtures/fractions with GPUSHARE (the
profiles of this tree): uneven.yaml (chat 17 GiB at 40 % and embed 4 GiB at
20 % under HAMi on each of two g6.xlarge L4s), heavy.yaml (critical llm at
60 % beside rerank under MPS) and many.yaml (twelve 1 GiB notebooks at 5 %,
time-sliced on one L4).  Each test breaks one fraction rule in a copy of a
plan (and, where the rule is about the file, in its workload file), runs the
checker and asserts its exact rule 18 lines; a broken plan must exit 1.  An
L4 has 23034 MiB less a 556 MiB reserve: 22478 MiB for the caps.
"""

import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
FIX = os.path.join(TOP, "tests", "cli", "fixtures", "fractions")
sys.path.insert(0, HERE)
import feasible  # noqa: E402

BIN = None
TMP = None
CAT = {}
PLANS = {}


def run(*args):
    env = dict(os.environ, GPUSHARE_PROFILES=os.path.join(TOP, "profiles"))
    out = subprocess.run([BIN] + list(args), env=env, stdout=subprocess.PIPE,
                         check=True).stdout
    return json.loads(out.decode("utf-8"), parse_float=Decimal)


def setUpModule():
    global TMP
    TMP = tempfile.mkdtemp(prefix="feasible-test.")
    CAT["gpus"] = run("gpus", "--format", "json")
    CAT["instances"] = run("instances", "--format", "json")
    for name in ("uneven", "heavy", "many"):
        PLANS[name] = run("plan", os.path.join(FIX, name + ".yaml"), "--format", "json")


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


def gpu(plan, ni, gi=0):
    return plan["nodes"][ni]["gpus"][gi]


def plain(x):
    """x with its Decimals as JSON numbers, as gpushare writes them."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [plain(v) for v in x]
    return float(x) if isinstance(x, Decimal) else x


def write_plan(plan, name="plan.json"):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(plain(plan), f)
    return path


def check(plan, work, target="90", rule=18):
    """(exit status, the lines of RULE rule) of feasible.py on plan, with
    work the workload file's path or its text."""
    if "\n" in work:
        path = os.path.join(TMP, "work.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(work)
        work = path
    path = write_plan(plan)
    rc, lines = feasible.check(path, CAT["gpus"], CAT["instances"], target, work)
    tag = "violation: RULE %d: " % rule
    return rc, [l[len(tag):] for l in lines if l.startswith(tag)]


def fixture(name):
    return os.path.join(FIX, name + ".yaml")


def set_memory(plan, work, mib):
    """Workload `work` of plan needs mib MiB: its record, its assignments
    and their caps."""
    gib = Decimal(mib) / 1024
    for w in plan["workloads"]:
        if w["name"] == work:
            w["memory_gib"] = gib
    for node in plan["nodes"]:
        for a in node["gpus"][0]["assignments"]:
            if a["workload"] == work:
                a["memory_gib"] = gib
                a["memory_limit_mib"] = mib
    resum(plan)


def resum(plan):
    """Each GPU's memory_planned_gib what its replicas need."""
    for node in plan["nodes"]:
        for g in node["gpus"]:
            g["memory_planned_gib"] = sum((a["memory_gib"] for a in g["assignments"]),
                                          Decimal(0))


def set_compute(plan, work, percent, threads):
    for w in plan["workloads"]:
        if w["name"] == work:
            w["compute_percent"] = Decimal(percent)
    for node in plan["nodes"]:
        for a in node["gpus"][0]["assignments"]:
            if a["workload"] == work:
                a["compute_percent"] = Decimal(percent)
                a["thread_percent"] = threads


UNEVEN_185 = """version: 1
fractions: [hami]
workloads:
  - {name: chat, kind: inference, replicas: 2, gpuMemory: 18.5GiB, compute: 40%}
  - {name: embed, kind: inference, replicas: 2, gpuMemory: 4GiB, compute: 20%}
"""


class Fractions(unittest.TestCase):
    def test_shipped_plans_pass(self):
        for name, n in (("uneven", 2), ("heavy", 2)):
            rc, lines = feasible.check(write_plan(PLANS[name]), CAT["gpus"],
                                       CAT["instances"], "90", fixture(name))
            self.assertEqual((rc, lines), (0, ["ok: 4 replicas on 2 GPUs in 2 nodes "
                                               "(%d fraction GPUs)" % n]))

    def test_caps_over_memory(self):
        p = copy.deepcopy(PLANS["uneven"])
        set_memory(p, "chat", 18944)  # 18.5 GiB: 18944 + 4096 > 22478
        rc, lines = check(p, UNEVEN_185)
        self.assertEqual(rc, 1)
        self.assertEqual(lines, [
            "node 0 (g6.xlarge) gpu 0: memory caps sum to 23040 MiB, the GPU has 22478 MiB "
            "usable",
            "node 1 (g6.xlarge) gpu 0: memory caps sum to 23040 MiB, the GPU has 22478 MiB "
            "usable"])

    def test_headroom_on_a_fraction_gpu(self):
        p = copy.deepcopy(PLANS["uneven"])
        gpu(p, 1).update(memory_headroom_percent=10.0, memory_capacity_gib=19.76)
        rc, lines = check(p, fixture("uneven"))
        self.assertEqual((rc, lines), (1, [
            "node 1 (g6.xlarge) gpu 0: a fraction GPU keeps 10.0% headroom",
            "node 1 (g6.xlarge) gpu 0: memory_capacity_gib 19.76, the GPU has 21.95 GiB "
            "usable"]))

    def test_cap_is_not_gpu_memory(self):
        p = copy.deepcopy(PLANS["uneven"])
        gpu(p, 0)["assignments"][0]["memory_limit_mib"] = 17000
        rc, lines = check(p, fixture("uneven"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: chat/0 memory_limit_mib 17000, its gpuMemory is "
            "17408 MiB"]))

    def test_thread_sum_over_100(self):
        p = copy.deepcopy(PLANS["uneven"])
        # 55.5 % + 44.3 % = 99.8 % within a 100 % target; 56 + 45 SM % = 101
        set_compute(p, "chat", "55.5", 56)
        set_compute(p, "embed", "44.3", 45)
        rc, lines = check(p, fixture("uneven"), target="100")
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: SM limits sum to 101% under hami",
            "node 1 (g6.xlarge) gpu 0: SM limits sum to 101% under hami"]))

    def test_thread_percent_rounds_up(self):
        p = copy.deepcopy(PLANS["uneven"])
        set_compute(p, "embed", "20.25", 20)
        rc, lines = check(p, fixture("uneven"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: embed/1 thread_percent 20 under hami, expected 21 "
            "(compute 20.25%)",
            "node 1 (g6.xlarge) gpu 0: embed/0 thread_percent 20 under hami, expected 21 "
            "(compute 20.25%)"]))

    def test_backend_not_listed(self):
        p = copy.deepcopy(PLANS["uneven"])
        gpu(p, 0)["backend"] = "mps"
        rc, lines = check(p, fixture("uneven"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: backend 'mps', the workload file's fractions are "
            "[hami]",
            "node 0 (g6.xlarge) gpu 0: backend mps, but no replica on its node is kept off "
            "time-slicing: the file's first backend is hami",
            "node 0 (g6.xlarge, config g6.xlarge-frac-hami): fraction GPUs under mps, the "
            "config name does not end in -frac-mps"]))

    def test_second_backend_without_heavy_replica(self):
        p = copy.deepcopy(PLANS["uneven"])
        gpu(p, 1)["backend"] = "mps"
        p["nodes"][1]["config"] = "g6.xlarge-frac-mps"
        rc, lines = check(p, "version: 1\nfractions: [hami, mps]\nworkloads: []\n")
        self.assertEqual((rc, lines), (1, [
            "node 1 (g6.xlarge) gpu 0: backend mps, but no replica on its node is kept off "
            "time-slicing: the file's first backend is hami"]))

    def test_heavy_replica_under_hami(self):
        p = copy.deepcopy(PLANS["heavy"])
        gpu(p, 0)["backend"] = "hami"
        p["nodes"][0]["config"] = "g6.xlarge-frac-hami"
        rc, lines = check(p, fixture("heavy"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: llm/0 (inference, latency critical, 60.0% compute) "
            "may not be time-sliced, yet its backend is hami"]))

    def test_dra_limits_no_compute(self):
        p = copy.deepcopy(PLANS["uneven"])
        gpu(p, 0)["backend"] = "dra"
        p["nodes"][0]["config"] = "g6.xlarge-frac-dra"
        rc, lines = check(p, "version: 1\nfractions: [dra, hami]\nworkloads: []\n")
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: chat/0 thread_percent 40 under dra, expected 0 "
            "(compute 40.0%)",
            "node 0 (g6.xlarge) gpu 0: embed/1 thread_percent 20 under dra, expected 0 "
            "(compute 20.0%)",
            "node 1 (g6.xlarge) gpu 0: backend hami, but no replica on its node is kept off "
            "time-slicing: the file's first backend is dra"]))

    def test_file_without_fractions(self):
        rc, lines = check(copy.deepcopy(PLANS["uneven"]), fixture("uneven-none"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: a fraction GPU (backend hami), but the workload "
            "file lists no fractions",
            "node 1 (g6.xlarge) gpu 0: a fraction GPU (backend hami), but the workload "
            "file lists no fractions"]))

    def test_eleven_hami_clients(self):
        p = copy.deepcopy(PLANS["many"])
        g = gpu(p, 0)
        self.assertEqual((g["strategy"], len(g["assignments"])), ("time-slicing", 12))
        g.update(strategy="fraction", backend="hami", replicas=0,
                 memory_headroom_percent=0, memory_capacity_gib=Decimal("21.95"))
        g["assignments"] = g["assignments"][:11]
        resum(p)
        for a in g["assignments"]:
            a.update(thread_percent=5, memory_limit_mib=1024)
        p["nodes"][0]["config"] = "g6.xlarge-frac-hami"
        p["workloads"][0]["replicas"] = 11
        p["replicas"] = 11
        rc, lines = check(p, fixture("many"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: 11 HAMi clients, at most 10"]))

    def test_fault_isolated_replica(self):
        p = copy.deepcopy(PLANS["uneven"])
        p["workloads"][1]["isolation"] = "fault"  # embed
        rc, lines = check(p, fixture("uneven"))
        self.assertEqual((rc, lines), (1, [
            "node 0 (g6.xlarge) gpu 0: fault-isolated embed/1 on a fraction GPU",
            "node 1 (g6.xlarge) gpu 0: fault-isolated embed/0 on a fraction GPU"]))
        rc, lines = check(p, fixture("uneven"), rule=8)
        self.assertEqual(lines, [
            "embed/1 (isolation: fault) is on node 0 (g6.xlarge) gpu 0 as fraction with others",
            "embed/0 (isolation: fault) is on node 1 (g6.xlarge) gpu 0 as fraction with others"])

    def test_two_tenants_and_lone_replica(self):
        p = copy.deepcopy(PLANS["uneven"])
        p["workloads"][1]["tenant"] = "globex"
        moved = gpu(p, 1)["assignments"].pop()
        gpu(p, 0)["assignments"].append(moved)
        resum(p)
        rc, lines = check(p, fixture("uneven"))
        self.assertEqual(rc, 1)
        self.assertEqual(lines[:3], [
            "node 0 (g6.xlarge) gpu 0: fraction GPU shared by tenants default, globex",
            "node 0 (g6.xlarge) gpu 0: memory caps sum to 25600 MiB, the GPU has 22478 MiB "
            "usable",
            "node 1 (g6.xlarge) gpu 0: a fraction GPU with 1 replica"])


class Sizes(unittest.TestCase):
    def test_size_mib(self):
        self.assertEqual([feasible.size_mib(s) for s in
                          ("17GiB", "3.5GiB", "1GB", "500MB", "300Mi", "0.000001Gi", "4 GiB",
                           "4", "4TiB", None)],
                         [17408, 3584, 954, 477, 300, 1, 4096, None, None, None])


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.stderr.write("usage: python3 tests/check/test_feasible.py GPUSHARE [-v]\n")
        sys.exit(2)
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main()
