#!/usr/bin/env python3
"""test_adversary.py - the adversary checker tested on hand-made emitted sets.

usage: python3 tests/check/test_adversary.py [-v]

Each test writes a small emitted directory (labels.sh, the device-plugin and
MIG ConfigMaps, the patches), a workload file and the plan JSON's workload
sizes and node instance types, runs adversary.check on them and asserts the
exact violation lines, or none.  The shipped profiles give the GPUs: L4
(23034 MiB, 556 MiB reserve: 21.95 GiB usable, 19.76 GiB at 10 % headroom),
A100-SXM4-40GB, g6.xlarge (1 L4), g6.12xlarge (4 L4), p4d.24xlarge (8
A100-SXM4-40GB).
"""

import json
import os
import shutil
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adversary  # noqa: E402
import yaml  # noqa: E402

PROFILES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "..", "..", "profiles"))


def dp_config(keys):
    """A device-plugin ConfigMap; keys: {name: (mode, replicas)}."""
    out = ["apiVersion: v1", "kind: ConfigMap", "metadata:",
           "  name: gpushare-device-plugin-config", "data:"]
    for k, (mode, r) in keys.items():
        out += ["  %s: |" % k, "    version: v1", "    flags:",
                "      migStrategy: %s" % ("mixed" if mode == "mig" else "none")]
        if mode in ("timeSlicing", "mps"):
            out += ["    sharing:", "      %s:" % mode, "        resources:",
                    "        - name: nvidia.com/gpu", "          replicas: %d" % r]
    return "\n".join(out) + "\n"


def deployment(name, replicas, selector, limit="nvidia.com/gpu", extra=None, meta=None,
               count=1):
    """One patch document as 0.1.0 writes it: a comment naming the object."""
    ps = {"nodeSelector": dict(selector)}
    ps.update(extra or {})
    ps["containers"] = [{"name": name, "resources": {"limits": {limit: count}}}]
    doc = {"spec": {"replicas": replicas, "template": {"spec": ps}}}
    if meta:
        doc["metadata"] = meta
    return "# Deployment %s: %d replicas\n---\n%s" % (name, replicas,
                                                    yaml.safe_dump(doc, sort_keys=False))


class Case:
    """A temporary emitted set."""

    def __init__(self, workloads, nodes, target=90):
        self.tmp = tempfile.mkdtemp(prefix="adversary-test.")
        self.dir = os.path.join(self.tmp, "out")
        os.mkdir(self.dir)
        # workloads: [(name, replicas, GiB, compute %, extra keys)]
        lines = ["version: 1", "targetUtilization: %d%%" % target, "workloads:"]
        recs = []
        for name, reps, mem, comp, extra in workloads:
            lines.append("  - {name: %s, replicas: %d, gpuMemory: %sGiB, compute: %s%%}"
                         % (name, reps, mem, comp))
            rec = {"name": name, "replicas": reps, "memory_gib": mem,
                   "compute_percent": comp, "memory_headroom_percent": 10.0,
                   "tenant": "default", "isolation": "none", "spread": "none",
                   "measured_on": None, "bound": "compute"}
            rec.update(extra)
            recs.append(rec)
        self.wfile = self.write("../workloads-in.yaml", "\n".join(lines) + "\n")
        self.plan = self.write("../plan.json", json.dumps(
            {"workloads": recs, "nodes": [{"instance": i} for i in nodes]}))

    def write(self, rel, text):
        p = os.path.normpath(os.path.join(self.dir, rel))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p

    def labels(self, per_node):
        out = ["#!/bin/sh", "set -eu"]
        for n, labs in enumerate(per_node, 1):
            out.append("kubectl label node \"${NODE_%d:?set NODE_%d}\" %s --overwrite"
                       % (n, n, " ".join("'%s=%s'" % kv for kv in labs.items())))
        self.write("labels.sh", "\n".join(out) + "\n")

    def run(self, surge=False):
        return adversary.check(self.dir, self.wfile, self.plan, PROFILES, surge)

    def close(self):
        shutil.rmtree(self.tmp)


DP = "nvidia.com/device-plugin.config"


class AdversaryTest(unittest.TestCase):
    def setUp(self):
        self.cases = []

    def tearDown(self):
        for c in self.cases:
            c.close()

    def case(self, *a, **k):
        c = Case(*a, **k)
        self.cases.append(c)
        return c

    def issue_case(self, pooled):
        """The issue's shape: two ts2 L4 nodes of one config, pairs (s, t)
        and (e, c); selected by config alone, s and e may meet."""
        c = self.case([("s", 1, 12, 30, {}), ("t", 1, 7, 30, {}),
                       ("e", 1, 12, 20, {}), ("c", 1, 7, 15, {})],
                      ["g6.xlarge", "g6.xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"ts2": ("timeSlicing", 2)}))
        if pooled:
            c.labels([{DP: "ts2", "gpushare.io/pool": "p1"},
                      {DP: "ts2", "gpushare.io/pool": "p2"}])
            sel = [{"gpushare.io/pool": "p1"}, {"gpushare.io/pool": "p2"}]
        else:
            c.labels([{DP: "ts2"}, {DP: "ts2"}])
            sel = [{DP: "ts2"}, {DP: "ts2"}]
        c.write("workloads.yaml", deployment("s", 1, sel[0]) + deployment("t", 1, sel[0]) +
                deployment("e", 1, sel[1]) + deployment("c", 1, sel[1]))
        return c

    def test_shared_label_lets_big_pods_meet(self):
        rc, out = self.issue_case(False).run()
        self.assertEqual(rc, 1)
        want = ("gpu 0 time-slicing x2: memory: s 12.00 GiB + e 12.00 GiB: 24.00 GiB together"
                " > 19.76 GiB (21.95 GiB less 10% headroom)")
        self.assertEqual(out, ["node 1 (g6.xlarge) " + want, "node 2 (g6.xlarge) " + want])

    def test_pool_labels_keep_pairs_apart(self):
        rc, out = self.issue_case(True).run()
        self.assertEqual((rc, out), (0, ["adversary: 2 nodes, 4 workloads, 0 violations"]))

    def test_surge_is_reported_as_a_rollout(self):
        rc, out = self.issue_case(True).run(surge=True)
        self.assertEqual(rc, 1)
        self.assertIn("node 1 (g6.xlarge) gpu 0 time-slicing x2: memory during a rollout "
                      "(maxSurge): s 12.00 GiB + s 12.00 GiB: 24.00 GiB together > 19.76 GiB "
                      "(21.95 GiB less 10% headroom)", out)

    def test_compute_worst_case(self):
        c = self.case([("a", 2, 2, 50, {}), ("b", 1, 2, 30, {})], ["g6.xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"ts3": ("timeSlicing", 3)}))
        c.labels([{DP: "ts3"}])
        c.write("workloads.yaml", deployment("a", 2, {DP: "ts3"}) +
                deployment("b", 1, {DP: "ts3"}))
        self.assertEqual(c.run(), (1, [
            "node 1 (g6.xlarge) gpu 0 time-slicing x3: compute: a + a + b: 130% together "
            "> 90% (targetUtilization 90%)"]))

    def test_kustomization_patches_tenants_and_isolation(self):
        c = self.case([("x", 1, 2, 10, {"tenant": "acme"}),
                       ("y", 1, 2, 10, {"tenant": "globex", "isolation": "fault"})],
                      ["g6.xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"ts2": ("timeSlicing", 2)}))
        c.labels([{DP: "ts2", "gpushare.io/pool": "ts2-a"}])
        aff = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [
                {"key": "gpushare.io/pool", "operator": "In", "values": ["ts2-a", "ts2-b"]}]}]}}}}
        # y's object is called differently and names its workload.
        c.write("patches/x.yaml", deployment("x", 1, {DP: "ts2"}, extra=aff))
        c.write("patches/y.yaml", deployment("y-server", 1, {"nvidia.com/gpu.product": "NVIDIA-L4"},
                                             meta={"annotations": {"gpushare.io/workload": "y"}}))
        c.write("kustomization.yaml", textwrap.dedent("""\
            resources: [device-plugin-config.yaml]
            patches:
            - path: patches/x.yaml
              target: {kind: Deployment, name: x, namespace: ml}
            - path: patches/y.yaml
              target: {kind: Deployment, name: y-server, namespace: ml}
            """))
        where = "node 1 (g6.xlarge) gpu 0 time-slicing x2: "
        self.assertEqual(c.run(), (1, [
            where + "tenant: x + y of tenants acme, globex may share it",
            where + "isolation: y (isolation: fault) may share it with x"]))

    def test_unknown_object_and_unplaced_workload(self):
        c = self.case([("a", 1, 2, 10, {})], ["g6.xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"none": ("none", 1)}))
        c.labels([{DP: "none"}])
        c.write("workloads.yaml", deployment("stray", 1, {DP: "none"}) +
                deployment("a", 1, {DP: "other"}))
        self.assertEqual(c.run(), (1, [
            "object Deployment stray: belongs to no workload of the plan",
            "workload a: placement: no node both matches its selectors and advertises what "
            "it requests"]))

    def test_spread_gpu_on_a_multi_gpu_shared_node(self):
        c = self.case([("g", 2, 2, 10, {"spread": "gpu"}), ("n", 2, 2, 10, {"spread": "node"})],
                      ["g6.12xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"ts2": ("timeSlicing", 2)}))
        c.labels([{DP: "ts2"}])
        c.write("workloads.yaml", deployment("g", 2, {DP: "ts2"}) +
                deployment("n", 2, {DP: "ts2"}))
        out = c.run()[1]
        self.assertIn("node 1 (g6.12xlarge): spread: n (spread: node) may have 2 pods here", out)
        self.assertEqual([x for x in out if "spread: gpu" in x],
                         ["node 1 (g6.12xlarge) gpu %d: spread: g (spread: gpu) may have 2 pods "
                          "on this GPU" % i for i in range(4)])

    def test_anti_affinity_caps_a_workload_per_node(self):
        c = self.case([("g", 2, 2, 10, {"spread": "node"})], ["g6.xlarge", "g6.xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"ts2": ("timeSlicing", 2)}))
        c.labels([{DP: "ts2"}, {DP: "ts2"}])
        anti = {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"topologyKey": "kubernetes.io/hostname",
             "labelSelector": {"matchLabels": {"gpushare.io/workload": "g"}}}]}}}
        c.write("workloads.yaml", deployment("g", 2, {DP: "ts2"}))
        self.assertEqual(c.run(), (1, ["node %d (g6.xlarge): spread: g (spread: node) may have "
                                       "2 pods here" % n for n in (1, 2)]))
        c.write("workloads.yaml", deployment("g", 2, {DP: "ts2"}, extra=anti))
        self.assertEqual(c.run(), (0, ["adversary: 2 nodes, 1 workloads, 0 violations"]))

    def test_mps_split(self):
        # L4 reports 23034 MiB: 3 clients get 7678 MiB (7.50 GiB) and 33 %.
        c = self.case([("m", 1, 7, 30, {}), ("big", 1, 7.6, 20, {}),
                       ("hot", 1, 1, 34, {})], ["g6.xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"mps3": ("mps", 3)}))
        c.labels([{DP: "mps3"}])
        c.write("workloads.yaml", deployment("m", 1, {DP: "mps3"}) +
                deployment("big", 1, {DP: "mps3"}) + deployment("hot", 1, {DP: "mps3"}))
        where = "node 1 (g6.xlarge) gpu 0 mps x3: "
        self.assertEqual(c.run(), (1, [
            where + "mps: big needs 7.60 GiB, each of 3 clients gets 7.50 GiB",
            where + "mps: hot needs 34%, each of 3 clients gets 33% threads"]))

    def test_mig_slice_alone(self):
        c = self.case([("fits", 1, 9, 10, {}), ("big", 1, 10, 10, {})], ["p4d.24xlarge"])
        c.write("device-plugin-config.yaml", dp_config({"mig": ("mig", 1)}))
        c.write("mig-config.yaml", textwrap.dedent("""\
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: gpushare-mig-config}
            data:
              config.yaml: |
                version: v1
                mig-configs:
                  geo:
                  - devices: [0]
                    mig-enabled: true
                    mig-devices: {"1g.10gb": 1}
            """))
        c.labels([{DP: "mig", "nvidia.com/mig.config": "geo"}])
        c.write("workloads.yaml",
                deployment("fits", 1, {DP: "mig"}, "nvidia.com/mig-1g.10gb") +
                deployment("big", 1, {DP: "mig"}, "nvidia.com/mig-1g.10gb"))
        self.assertEqual(c.run(), (1, [
            "node 1 (p4d.24xlarge) gpu 0 MIG 1g.10gb#0: memory: big alone needs 10.00 GiB, "
            "the unit offers 9.62 GiB"]))

    def test_labels_sh_with_checks_and_functions(self):
        c = self.case([], [])
        c.write("labels.sh", textwrap.dedent("""\
            #!/bin/sh
            set -eu
            lbl() {
                kubectl label node "$1" "$2" "$3" --overwrite
            }
            for n in "$NODE_1" "$NODE_2"; do
                kubectl get node "$n" -o jsonpath='{.metadata.labels.instance-type}'
            done
            kubectl get nodes -l 'node.kubernetes.io/instance-type=g6.xlarge' >/dev/null
            lbl "$NODE_1" 'nvidia.com/device-plugin.config=a' 'gpushare.io/pool=p1'
            kubectl label node "${NODE_2:?set NODE_2}" \\
                nvidia.com/device-plugin.config=b gpushare.io/pool=p2 --overwrite
            kubectl label node "$NODE_2" gpushare.io/pool- --overwrite
            """))
        self.assertEqual(adversary.parse_labels_sh(os.path.join(c.dir, "labels.sh")), {
            1: {DP: "a", "gpushare.io/pool": "p1"}, 2: {DP: "b"}})

    def wide_case(self, nodes, config, count):
        """m: one replica of 3 L4s (gpusPerReplica 3), its pods requesting
        count GPUs, on nodes of one config."""
        c = self.case([("m", 1, 12, 40, {"gpus_per_replica": 3})], nodes)
        c.write("device-plugin-config.yaml", dp_config({"c": config}))
        c.labels([{DP: "c"} for _ in nodes])
        c.write("workloads.yaml", deployment("m", 1, {DP: "c"}, count=count))
        return c

    def test_multi_gpu_pod_on_a_four_gpu_node(self):
        c = self.wide_case(["g6.12xlarge"], ("none", 1), 3)
        self.assertEqual(c.run(), (0, ["adversary: 1 nodes, 1 workloads, 0 violations"]))

    def test_multi_gpu_pod_fits_no_one_gpu_node(self):
        c = self.wide_case(["g6.xlarge", "g6.xlarge"], ("none", 1), 3)
        self.assertEqual(c.run(), (1, [
            "workload m: placement: no node both matches its selectors and advertises what "
            "it requests"]))

    def test_a_patch_that_changes_the_gpu_count(self):
        c = self.wide_case(["g6.12xlarge"], ("none", 1), 1)
        self.assertEqual(c.run(), (1, [
            "object Deployment m: gpus: its pods request 1 units, workload m holds 3 GPUs "
            "per replica"]))

    def test_multi_gpu_pod_on_shared_gpus(self):
        c = self.wide_case(["g6.12xlarge"], ("timeSlicing", 2), 3)
        rc, out = c.run()
        self.assertEqual(rc, 1)
        self.assertEqual(out[-4:], [
            "node 1 (g6.12xlarge) gpu %d time-slicing x2: gpus: m's pods request 3 of "
            "nvidia.com/gpu, shared x2: the device plugin may give them 3 replicas of one GPU"
            % g for g in range(4)])


if __name__ == "__main__":
    unittest.main()
