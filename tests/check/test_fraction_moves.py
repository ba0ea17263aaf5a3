#!/usr/bin/env python3
"""test_fraction_moves.py - the adversary's fraction moves on hand-made sets.

usage: python3 tests/check/test_fraction_moves.py [-v]

Like test_adversary.py (whose Case writes the sets): each test states a
HAMi, DRA-capacity or MPS-claim set and asserts the exact violations. L4:
23034 MiB reported, 22478 MiB usable; g6.12xlarge has 4.
"""

import os
import sys
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_adversary import Case  # noqa: E402

HAMI_NODE = {"gpu": "on", "nvidia.com/gpu.deploy.device-plugin": "false",
             "gpushare.io/pool": "frac"}
POOL = {"gpushare.io/pool": "frac"}


def hami_values(scaling):
    return yaml.safe_dump({"devicePlugin": {"deviceSplitCount": 10,
                                            "deviceMemoryScaling": scaling,
                                            "deviceCoreScaling": 1,
                                            "nvidiaNodeSelector": {"gpu": "on"}}})


def doc(name, replicas, ps):
    d = {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": name, "namespace": "default"},
         "spec": {"replicas": replicas, "strategy": {"rollingUpdate": {"maxSurge": 0}},
                  "template": {"metadata": {"labels": {"gpushare.io/workload": name}},
                               "spec": ps}}}
    return "---\n" + yaml.safe_dump(d, sort_keys=False)


def hami_pod(name, replicas, mib, cores, scheduler="hami-scheduler"):
    lim = {"nvidia.com/gpu": 1, "nvidia.com/gpumem": mib, "nvidia.com/gpucores": cores}
    ps = {"nodeSelector": dict(POOL), "containers": [{"name": "main",
                                                       "resources": {"limits": lim}}]}
    if scheduler:
        ps["schedulerName"] = scheduler
    return doc(name, replicas, ps)


def claim_pod(name, replicas, field, claim, env=None):
    c = {"name": "main", "resources": {"claims": [{"name": "gpu", "request": "gpu"}]}}
    if env:
        c["env"] = [{"name": k, "value": v} for k, v in env.items()]
    ps = {"nodeSelector": dict(POOL), "resourceClaims": [{"name": "gpu", field: claim}],
          "containers": [c]}
    return doc(name, replicas, ps)


def template(name, mib):
    return "---\n" + yaml.safe_dump({
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
            "deviceClassName": "gpu.nvidia.com",
            "capacity": {"requests": {"memory": "%dMi" % mib}}}}]}}}})


def mps_claim(name, threads, mib):
    return "---\n" + yaml.safe_dump({
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"devices": {
            "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}],
            "config": [{"requests": ["gpu"], "opaque": {"driver": "gpu.nvidia.com", "parameters": {
                "apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",
                "sharing": {"strategy": "MPS", "mpsConfig": {
                    "defaultActiveThreadPercentage": threads,
                    "defaultPinnedDeviceMemoryLimit": "%dMi" % mib}}}}}]}}})


class FractionMovesTest(unittest.TestCase):
    def setUp(self):
        self.cases = []

    def tearDown(self):
        for c in self.cases:
            c.close()

    def case(self, *a, **k):
        c = Case(*a, **k)
        self.cases.append(c)
        return c

    def hami_case(self, scaling):
        """Two 11 GiB and two 10 GiB pods, planned a + b on each of two of
        a node's four L4s; HAMi may put a + a on one GPU if it accounts
        more than the usable 22478 MiB."""
        c = self.case([("a", 2, 11, 40, {}), ("b", 2, 10, 40, {})], ["g6.12xlarge"])
        c.labels([HAMI_NODE])
        c.write("hami-values.yaml", hami_values(scaling))
        c.write("workloads.yaml", hami_pod("a", 2, 11264, 40) + hami_pod("b", 2, 10240, 40))
        return c

    def test_hami_reported_memory_lets_caps_exceed_usable(self):
        rc, out = self.hami_case(1).run()
        self.assertEqual(rc, 1)
        self.assertEqual(out, ["node 1 (g6.12xlarge) gpu %d hami: memory: a x2: 22528 MiB "
                               "together > 22478 MiB usable" % g for g in range(4)])

    def test_hami_scaled_to_usable_holds(self):
        self.assertEqual(self.hami_case(0.975862).run(),
                         (0, ["adversary: 1 nodes, 2 workloads, 0 violations"]))

    def test_hami_cores_below_compute_and_foreign_pod(self):
        c = self.case([("a", 1, 11, 40, {}), ("x", 1, 2, 10, {})], ["g6.xlarge"])
        c.labels([HAMI_NODE])
        c.write("hami-values.yaml", hami_values(0.975862))
        c.write("workloads.yaml", hami_pod("a", 1, 11264, 30) +
                hami_pod("x", 1, 2048, 10, scheduler=None).replace(
                    "nvidia.com/gpumem: 2048\n", "").replace("nvidia.com/gpucores: 10\n", ""))
        self.assertEqual(c.run(), (1, [
            "node 1 (g6.xlarge): hami: x's pods ask nvidia.com/gpu without hami-scheduler and "
            "may land on this HAMi node",
            "node 1 (g6.xlarge) gpu 0 hami: compute: a needs 40%, HAMi limits it to gpucores "
            "30%",
            # No device plugin of NVIDIA's advertises nvidia.com/gpu there.
            "workload x: placement: no node both matches its selectors and advertises what "
            "it requests"]))

    def test_dra_capacity_packs_compute_past_the_target(self):
        """Claims count memory only: two 60 % pods fit one L4's memory."""
        c = self.case([("a", 2, 4, 60, {})], ["g6.12xlarge"])
        c.labels([POOL])
        c.write("resourceclaims.yaml", template("gpushare-a-4198mi", 4198))
        c.write("workloads.yaml", claim_pod("a", 2, "resourceClaimTemplateName",
                                            "gpushare-a-4198mi"))
        self.assertEqual(c.run(), (1, [
            "node 1 (g6.12xlarge) gpu %d dra: compute: a x2: 120%% together > "
            "targetUtilization 90%% (DRA limits no compute)" % g for g in range(4)]))

    def test_dra_capacity_counts_gpu_memory_not_the_request(self):
        """Requests at gpuMemory (no scaling) let 22528 MiB meet on one L4."""
        c = self.case([("a", 2, 11, 20, {})], ["g6.xlarge"])
        c.labels([POOL])
        c.write("resourceclaims.yaml", template("gpushare-a-11264mi", 11264))
        c.write("workloads.yaml", claim_pod("a", 2, "resourceClaimTemplateName",
                                            "gpushare-a-11264mi"))
        self.assertEqual(c.run(), (1, [
            "node 1 (g6.xlarge) gpu 0 dra: memory: a x2: 22528 MiB together > 22478 MiB "
            "usable"]))

    def spread_case(self, mib, anti):
        """Two replicas of a spread: gpu workload in one HAMi pool of two
        single-L4 nodes: HAMi keeps them apart only if two caps overflow
        what it accounts; else the pods need one node each."""
        c = self.case([("s", 2, mib // 1024, 30, {"spread": "gpu"})], ["g6.xlarge", "g6.xlarge"])
        c.labels([HAMI_NODE, HAMI_NODE])
        c.write("hami-values.yaml", hami_values(0.975862))
        doc = hami_pod("s", 2, mib, 30)
        if anti:
            doc = doc.replace("      nodeSelector:", "      affinity:\n        podAntiAffinity:\n"
                              "          requiredDuringSchedulingIgnoredDuringExecution:\n"
                              "          - labelSelector: {matchLabels: {gpushare.io/workload: s}}\n"
                              "            topologyKey: kubernetes.io/hostname\n"
                              "      nodeSelector:")
        c.write("workloads.yaml", doc)
        return c

    def test_spread_gpu_needs_nodes_only_where_two_fit(self):
        self.assertEqual(self.spread_case(12288, False).run(),
                         (0, ["adversary: 2 nodes, 1 workloads, 0 violations"]))
        self.assertEqual(self.spread_case(8192, False).run(), (1, [
            "node %d (g6.xlarge) gpu 0 hami: spread: s (spread: gpu) may have 2 pods on this "
            "GPU" % n for n in (1, 2)]))
        self.assertEqual(self.spread_case(8192, True).run(),
                         (0, ["adversary: 2 nodes, 1 workloads, 0 violations"]))

    def mps_case(self, rerank_env):
        c = self.case([("llm", 1, 14, 60, {}), ("rerank", 1, 6, 25, {})], ["g6.xlarge"])
        c.labels([POOL])
        c.write("resourceclaims.yaml", mps_claim("gpushare-n1-gpu0", 60, 14336))
        c.write("workloads.yaml", claim_pod(
            "llm", 1, "resourceClaimName", "gpushare-n1-gpu0",
            {"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE": "60",
             "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT": "0=14336M"}) + claim_pod(
            "rerank", 1, "resourceClaimName", "gpushare-n1-gpu0", rerank_env))
        return c

    def test_mps_clients_lower_the_defaults(self):
        self.assertEqual(self.mps_case({"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE": "25",
                                        "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT": "0=6144M"}).run(),
                         (0, ["adversary: 1 nodes, 2 workloads, 0 violations"]))

    def test_mps_client_without_env_takes_the_defaults(self):
        self.assertEqual(self.mps_case(None).run(), (1, [
            "claim default/gpushare-n1-gpu0 mps: memory: its 2 clients' limits sum to 28672 "
            "MiB > 22478 MiB usable",
            "claim default/gpushare-n1-gpu0 mps: mps: its clients' thread % sum to 120 > 100"]))


if __name__ == "__main__":
    unittest.main()
