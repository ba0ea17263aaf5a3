#!/usr/bin/env python3
"""test_fraction_check.py - fraction_check.py against sets it must refuse.

usage: python3 tests/emit/test_fraction_check.py GPUSHARE

Each test emits a fractions fixture with GPUSHARE (plan --emit, example
Deployments), checks that fraction_check.py passes it, breaks one thing the
way a hand edit or a wrong emitter would, and asserts the exact error.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
FIX = os.path.join(TOP, "tests", "cli", "fixtures")
BIN = None


def run_check(d):
    p = subprocess.run([sys.executable, os.path.join(HERE, "fraction_check.py"), d],
                       capture_output=True, text=True, check=False)
    return p.returncode, p.stdout.splitlines()


class FractionCheckTest(unittest.TestCase):
    def emit(self, fixture, *extra):
        d = tempfile.mkdtemp(prefix="fraction-check.")
        self.addCleanup(shutil.rmtree, d)
        out = os.path.join(d, "set")
        subprocess.run([BIN, "plan", os.path.join(FIX, fixture), "--emit", out,
                        "--example-deployments"] + list(extra),
                       check=True, capture_output=True)
        rc, lines = run_check(out)
        self.assertEqual((rc, lines[-1:]), (0, ["fraction-check: %d files, 0 errors"
                                                % (len(os.listdir(out)) - 1)]))
        return out

    def edit(self, d, name, old, new, count=1):
        p = os.path.join(d, name)
        with open(p, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count(old), count, "%s: %r" % (name, old))
        with open(p, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))

    def errors(self, d):
        rc, lines = run_check(d)
        self.assertEqual(rc, 1)
        return lines[:-1]

    def test_hami_scaling_above_one(self):
        d = self.emit("fractions/uneven.yaml")
        self.edit(d, "hami-values.yaml", "deviceMemoryScaling: 0.975862",
                  "deviceMemoryScaling: 1.5")
        self.assertEqual(self.errors(d), [
            "hami-values.yaml: devicePlugin.deviceMemoryScaling: 1.5: must be a number in "
            "(0, 1]: above 1 HAMi hands out more memory than the GPU has"])

    def test_hami_gpumem_above_what_hami_accounts(self):
        d = self.emit("fractions/uneven.yaml")
        self.edit(d, "workloads.yaml", "nvidia.com/gpumem: 17408", "nvidia.com/gpumem: 22500")
        self.assertEqual(self.errors(d), [
            "Deployment chat: container chat: nvidia.com/gpumem 22500 MiB > the 22478 MiB "
            "HAMi accounts for node 1's L4",
            "Deployment chat: container chat: nvidia.com/gpumem 22500 MiB > the 22478 MiB "
            "HAMi accounts for node 2's L4",
            "labels.sh: nodes 1,2: the HAMi pods that land only here ask 53192 MiB, HAMi "
            "accounts 44956 MiB"])

    def test_hami_pod_without_scheduler_or_node_labels(self):
        d = self.emit("fractions/uneven.yaml")
        self.edit(d, "workloads.yaml", "      schedulerName: hami-scheduler\n", "", count=2)
        self.edit(d, "labels.sh", " 'gpu=on'", "", count=2)
        self.assertEqual(self.errors(d), [
            "Deployment chat: container chat: schedulerName None: HAMi pods need "
            "hami-scheduler",
            "Deployment chat: container chat: node 1 is not labelled {'gpu': 'on'}: HAMi's "
            "device plugin does not run there",
            "Deployment chat: container chat: node 2 is not labelled {'gpu': 'on'}: HAMi's "
            "device plugin does not run there",
            "Deployment embed: container embed: schedulerName None: HAMi pods need "
            "hami-scheduler",
            "Deployment embed: container embed: node 1 is not labelled {'gpu': 'on'}: HAMi's "
            "device plugin does not run there",
            "Deployment embed: container embed: node 2 is not labelled {'gpu': 'on'}: HAMi's "
            "device plugin does not run there"])

    def test_hami_beside_the_dra_kubelet_plugin(self):
        d = self.emit("fractions/uneven.yaml", "--dra")
        self.edit(d, "dra-driver-values.yaml", "operator: NotIn", "operator: In")
        self.assertEqual(self.errors(d), [
            "Deployment %s: container %s: node %d runs the DRA driver's GPU kubelet plugin "
            "beside HAMi's device plugin" % (w, w, n) for w in ("chat", "embed") for n in (1, 2)])

    def test_hami_node_without_its_own_scaling(self):
        d = self.emit("fractions/eks-team.yaml")
        self.edit(d, "labels.sh", 'hami_node "$NODE_3" 0.986799\n', "")
        self.assertEqual(self.errors(d), [
            "labels.sh: node 3: a HAMi node without its entry in gpushare-hami-nodes"])

    def test_dra_capacity_not_whole_mib_and_driver_mode(self):
        d = self.emit("fractions/uneven-dra.yaml")
        self.edit(d, "resourceclaims.yaml", 'memory: "4198Mi"', 'memory: "4198.5Mi"')
        self.edit(d, "dra-driver-values.yaml", "consumableShares: memory",
                  "consumableShares: unlimited")
        self.assertEqual(self.errors(d), [
            "resourceclaims.yaml: gpushare-embed-4198mi: memory 4198.5Mi: the driver counts "
            "whole MiB, at least 1Mi",
            "dra-driver-values.yaml: consumableShares: 'unlimited': must be memory, so that "
            "a claim that asks no memory keeps a whole GPU"])

    def test_mps_client_above_the_claim_default(self):
        d = self.emit("fractions-emit/four-mps.yaml")
        with open(os.path.join(d, "resourceclaims.yaml"), encoding="utf-8") as f:
            n = len(re.findall(r'defaultPinnedDeviceMemoryLimit: "17408Mi"', f.read()))
        self.edit(d, "resourceclaims.yaml", 'defaultPinnedDeviceMemoryLimit: "17408Mi"',
                  'defaultPinnedDeviceMemoryLimit: "16Gi"', count=n)
        errs = self.errors(d)
        self.assertEqual(len(errs), 4)
        self.assertTrue(all(re.fullmatch(
            r"Deployment chat(-\d)?: container chat: memory limit 17408 MiB above the "
            r"claim's default 16Gi: a client may only lower it", e) for e in errs), errs)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: test_fraction_check.py GPUSHARE\n")
        sys.exit(2)
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main()
