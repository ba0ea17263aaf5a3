#!/usr/bin/env python3
"""fraction_check.py - check the fraction files of `gpushare plan --emit DIR`.

usage: fraction_check.py [--profiles DIR[:DIR...]] DIR

The shared validators check Kubernetes objects by their schemas; what they
do not know is checked here, from each backend's own schema and code:

HAMi (Project-HAMi/HAMi: charts/hami/values.yaml, docs/config.md,
pkg/device/nvidia/fit_checks.go)
  values   hami-values.yaml holds only keys of the chart we set, with their
           types: scheduler.defaultSchedulerPolicy.{node,gpu}SchedulerPolicy
           binpack or spread; scheduler.admissionWebhook.objectSelector a
           label selector; devicePlugin.deviceSplitCount an integer >= 1,
           deviceMemoryScaling a number in (0, 1] and deviceCoreScaling 1
           (above 1 HAMi hands out more than the GPU has, and no cap holds);
           devicePlugin.nvidiaNodeSelector a map of strings; a per-node
           config (nodeConfiguration.externalConfigName) is the ConfigMap
           labels.sh writes, with an entry of scaling in (0, 1] per HAMi node
  pods     a container asking nvidia.com/gpumem or nvidia.com/gpucores asks
           nvidia.com/gpu 1 too; gpumem an integer MiB in 1 .. what HAMi
           accounts for the GPU of every node the pod may land on (reported
           MiB x deviceMemoryScaling, the node's own where labels.sh writes
           HAMi's per-node config); gpucores an integer in 0 .. 100;
           requests, where given, equal limits; the pod names hami-scheduler
           and matches the webhook's objectSelector
  nodes    every node a HAMi pod may land on is labelled as the device
           plugin's nvidiaNodeSelector says, and has the GPU Operator's
           device plugin off and, beside a DRA stack, the DRA driver's GPU
           kubelet plugin too (dra-driver-values.yaml's affinity); the pods that may land on a pool's nodes fit
           them: their memory caps sum to at most the pool's accounted
           memory, their SM % to 100 per GPU, their count to deviceSplitCount
           per GPU
DRA consumable capacity (KEP-5075; NVIDIA's consumable_shares.go)
  claims   capacity sits in the request (`exactly` from v1beta2); its
           requests are quantities of qualified names; memory is a whole
           number of MiB (the driver's step), >= 1Mi, <= the largest GPU of
           the nodes; a claim with capacity carries no MPS config
  driver   dra-driver-values.yaml turns the ConsumableShares gate on with
           consumableShares: memory (the one mode in which a claim that asks
           no memory still gets a whole GPU), and MPSSupport off
MPS per-client limits (DRA GpuConfig mpsConfig; the clients' environment)
  env      CUDA_MPS_ACTIVE_THREAD_PERCENTAGE an integer 1 .. 100;
           CUDA_MPS_PINNED_DEVICE_MEM_LIMIT `<ordinal>=<n>[M|G]` entries
  claim    the claim the container takes is an MPS ResourceClaim; a client
           may only lower the daemon's defaults, so each client's limits are
           at most the claim's defaultActiveThreadPercentage and
           defaultPinnedDeviceMemoryLimit; over the claim's clients (all its
           pods share its one GPU): memory limits sum to at most the GPU's
           usable memory, thread % to at most 100, and at most 48 clients

One line per error, `FILE: WHERE: message`; the last line is
`fraction-check: N files, M errors`. Exit 1 on any error, 2 on unreadable
input. Python 3 with PyYAML; a test tool, never shipped.
"""

import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "check"))
import adversary as adv  # noqa: E402  (the emitted set's readers)

MEM, CORES, GPU = "nvidia.com/gpumem", "nvidia.com/gpucores", "nvidia.com/gpu"
QUANTITY = re.compile(r"^[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$")
BIN = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60}
DEC = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
MPS_CLIENTS = 48
VALUES = {  # the hami-values keys gpushare may set, with their checks
    "scheduler": {"defaultSchedulerPolicy": {"nodeSchedulerPolicy": "policy",
                                             "gpuSchedulerPolicy": "policy"},
                  "admissionWebhook": {"objectSelector": "selector"}},
    "devicePlugin": {"deviceSplitCount": "split", "deviceMemoryScaling": "scaling",
                     "deviceCoreScaling": "one", "nvidiaNodeSelector": "strmap",
                     "nodeConfiguration": {"externalConfigName": "dnsname"}},
}


def quantity_bytes(v):
    """Bytes of a Kubernetes quantity, or None when it is not one."""
    from decimal import Decimal
    s = str(v).strip()
    m = QUANTITY.match(s)
    if not m:
        return None
    num, suf = Decimal(m.group(1)), m.group(3) or ""
    if suf in BIN:
        return num * BIN[suf]
    if suf[:1] in "eE":
        return num * (Decimal(10) ** int(suf[1:]))
    return num * (Decimal(10) ** DEC[suf])


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool) or (
        isinstance(v, str) and re.fullmatch(r"[0-9]+", v) is not None)


class Checker:
    def __init__(self, d, cat):
        self.d, self.cat = d, cat
        self.errors = []
        self.files = 0
        self.docs = {}  # file -> documents
        for f in sorted(os.listdir(d)):
            if f.endswith(".yaml"):
                self.docs[f] = adv.load_docs(os.path.join(d, f))
                self.files += 1
        self.models = self.node_models()
        self.labels = adv.parse_labels_sh(os.path.join(d, "labels.sh"))
        self.node_scaling = adv.frac.hami_node_scaling(os.path.join(d, "labels.sh"))
        self.objects = adv.load_objects(d)
        self.values = (self.docs.get("hami-values.yaml") or [None])[0]
        self.driver = (self.docs.get("dra-driver-values.yaml") or [None])[0]

    def err(self, f, where, msg):
        self.errors.append("%s: %s: %s" % (f, where, msg))

    def node_models(self):
        """{n: GPU model} from labels.sh's `check N "$NODE_N" TYPE PRODUCT...`."""
        out = {}
        with open(os.path.join(self.d, "labels.sh"), encoding="utf-8") as fh:
            for m in re.finditer(r"^check (\d+) \"\$NODE_\d+\" '[^']*' '([^']*)'", fh.read(),
                                 re.M):
                g = self.cat.gpu(m.group(2))
                if g is None:
                    raise adv.Bad("labels.sh: GPU %r is not in the profiles" % m.group(2))
                out[int(m.group(1))] = g
        return out

    # -- where a pod may land ------------------------------------------------

    def landing(self, kind, doc):
        """The plan nodes whose labels a pod's selectors match."""
        o = adv.Obj(kind, "", doc, None, False)
        o.requests = {}  # selectors only: what a node advertises is not known here
        out = []
        for n, g in sorted(self.models.items()):
            node = adv.Node(n, "-", g, 1, "amd64", self.labels.get(n, {}))
            if o.admits(node):
                out.append(n)
        return out

    # -- HAMi -----------------------------------------------------------------

    def check_values(self):
        f = "hami-values.yaml"
        if self.values is None:
            return
        self.walk_values(f, "", self.values, VALUES)
        ext = ((self.values.get("devicePlugin") or {}).get("nodeConfiguration") or {}).get(
            "externalConfigName")
        if ext is None:
            return
        with open(os.path.join(self.d, "labels.sh"), encoding="utf-8") as fh:
            if "kubectl create configmap %s " % ext not in fh.read():
                self.err(f, "devicePlugin.nodeConfiguration.externalConfigName",
                         "%r: labels.sh does not write it" % ext)
        for n, lab in sorted(self.labels.items()):
            if lab.get("gpu") == "on" and n not in self.node_scaling:
                self.err("labels.sh", "node %d" % n, "a HAMi node without its entry in %s"
                         % ext)
        for n, sc in sorted(self.node_scaling.items()):
            if not 0 < sc <= 1:
                self.err("labels.sh", "node %d" % n, "deviceMemoryScaling %s: must be in "
                         "(0, 1]" % sc)

    def walk_values(self, f, path, v, spec):
        if isinstance(spec, dict):
            if not isinstance(v, dict):
                self.err(f, path or "/", "must be a map")
                return
            for k, x in v.items():
                p = "%s.%s" % (path, k) if path else str(k)
                if k not in spec:
                    self.err(f, p, "not a key of HAMi's chart that gpushare sets")
                else:
                    self.walk_values(f, p, x, spec[k])
            return
        ok = {"policy": lambda x: x in ("binpack", "spread"),
              "split": lambda x: is_int(x) and int(x) >= 1,
              "scaling": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
              and 0 < x <= 1,
              "one": lambda x: x == 1 and not isinstance(x, bool),
              "strmap": lambda x: isinstance(x, dict) and all(
                  isinstance(a, str) and isinstance(b, str) for a, b in x.items()),
              "selector": lambda x: isinstance(x, dict) and set(x) <= {
                  "matchLabels", "matchExpressions"},
              "dnsname": lambda x: isinstance(x, str) and re.fullmatch(
                  r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?", x) is not None}[spec]
        if not ok(v):
            why = {"policy": "binpack or spread", "split": "an integer >= 1",
                   "scaling": "a number in (0, 1]: above 1 HAMi hands out more memory "
                   "than the GPU has", "one": "1: above 1 HAMi hands out more than 100 % "
                   "of the SMs", "strmap": "a map of strings (quote \"on\")",
                   "selector": "a label selector", "dnsname": "a ConfigMap name"}[spec]
            self.err(f, path, "%r: must be %s" % (v, why))

    def dra_plugin_runs_on(self, labels):
        """Whether dra-driver-values.yaml's kubelet plugin affinity admits a
        GPU node with these labels (the GPU Operator's gpu.present too)."""
        if self.driver is None:
            return False
        lab = dict(labels, **{"nvidia.com/gpu.present": "true"})
        terms = ((((self.driver.get("kubeletPlugin") or {}).get("affinity") or {})
                  .get("nodeAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution")
                 or {}).get("nodeSelectorTerms")
        if not terms:  # the chart's own terms admit every GPU node
            return True
        return any(adv.term_matches(t, lab) for t in terms)

    def hami_setting(self, key, default):
        dp = (self.values or {}).get("devicePlugin") or {}
        return dp.get(key, default)

    def accounted_mib(self, g, n=None):
        s = self.node_scaling.get(n, self.hami_setting("deviceMemoryScaling", 1))
        return int(g["memory_mib"] * float(s)) if isinstance(s, (int, float)) else 0

    def webhook_matches(self, labels):
        sel = ((((self.values or {}).get("scheduler") or {}).get("admissionWebhook") or {})
               .get("objectSelector") or {})
        for k, v in (sel.get("matchLabels") or {}).items():
            if labels.get(k) != v:
                return False
        return all(adv.match_expr(e, labels) for e in sel.get("matchExpressions") or [])

    def check_hami_pod(self, f, where, kind, doc, c, pool_load):
        lim = (c.get("resources") or {}).get("limits") or {}
        req = (c.get("resources") or {}).get("requests") or {}
        mem, cores = lim.get(MEM), lim.get(CORES)
        if lim.get(GPU) not in (1, "1"):
            self.err(f, where, "a HAMi fraction asks %s 1, not %r" % (GPU, lim.get(GPU)))
        for k in (GPU, MEM, CORES):
            if k in req and req[k] is not None and str(req[k]) != str(lim.get(k)):
                self.err(f, where, "requests %s %r differs from its limit" % (k, req[k]))
        if mem is None or not is_int(mem) or int(mem) < 1:
            self.err(f, where, "%s %r: must be an integer MiB >= 1" % (MEM, mem))
            mem = None
        if cores is not None and (not is_int(cores) or int(cores) > 100):
            self.err(f, where, "%s %r: must be an integer in 0..100" % (CORES, cores))
            cores = None
        ps = adv.pod_spec(kind, doc)
        if ps.get("schedulerName") != "hami-scheduler":
            self.err(f, where, "schedulerName %r: HAMi pods need hami-scheduler"
                     % ps.get("schedulerName"))
        labels = (adv.pod_meta(kind, doc).get("labels") or {})
        if self.values is None:
            self.err(f, where, "asks HAMi resources, but the set has no hami-values.yaml")
        elif not self.webhook_matches(labels):
            self.err(f, where, "its labels do not match HAMi's webhook objectSelector")
        nodes = self.landing(kind, doc)
        if not nodes:
            self.err(f, where, "no node of the plan matches its selectors")
        ns = self.hami_setting("nvidiaNodeSelector", {"gpu": "on"}) or {}
        o = adv.Obj(kind, "", doc, None, False)
        for n in nodes:
            lab = self.labels.get(n, {})
            if any(lab.get(k) != v for k, v in ns.items()):
                self.err(f, where, "node %d is not labelled %s: HAMi's device plugin does "
                         "not run there" % (n, ns))
            if self.dra_plugin_runs_on(lab):
                self.err(f, where, "node %d runs the DRA driver's GPU kubelet plugin beside "
                         "HAMi's device plugin" % n)
            if lab.get("nvidia.com/gpu.deploy.device-plugin") != "false":
                self.err(f, where, "node %d keeps the GPU Operator's device plugin, which "
                         "advertises nvidia.com/gpu beside HAMi's" % n)
            g = self.models[n]
            if mem is not None and int(mem) > self.accounted_mib(g, n):
                self.err(f, where, "%s %s MiB > the %d MiB HAMi accounts for node %d's %s"
                         % (MEM, mem, self.accounted_mib(g, n), n, g["name"]))
        pool_load.append((frozenset(nodes), o.replicas * int(mem or 0),
                          o.replicas * int(cores or 0), o.replicas))

    def check_pool_loads(self, pool_load):
        """A necessary bound: the HAMi pods whose nodes all lie in a set S
        of nodes fit S's GPUs (memory, SM %, slots) when all run at once."""
        with open(os.path.join(self.d, "labels.sh"), encoding="utf-8") as fh:
            text = fh.read()
        gpus = {}
        for n in self.models:
            m = re.search(r"^check %d \"\$NODE_%d\" '([^']*)'" % (n, n), text, re.M)
            inst = self.cat.instances.get(m.group(1)) if m else None
            gpus[n] = inst[1] if inst else 1
        split = self.hami_setting("deviceSplitCount", 10)
        split = int(split) if is_int(split) else 10
        for s in sorted({x[0] for x in pool_load if x[0]}, key=sorted):
            mem = sum(x[1] for x in pool_load if x[0] <= s)
            cores = sum(x[2] for x in pool_load if x[0] <= s)
            count = sum(x[3] for x in pool_load if x[0] <= s)
            amem = sum(self.accounted_mib(self.models[n], n) * gpus[n] for n in s)
            where = "nodes %s" % ",".join(str(n) for n in sorted(s))
            if mem > amem:
                self.err("labels.sh", where, "the HAMi pods that land only here ask %d MiB, "
                         "HAMi accounts %d MiB" % (mem, amem))
            if cores > 100 * sum(gpus[n] for n in s):
                self.err("labels.sh", where, "the HAMi pods that land only here ask %d %% of "
                         "the SMs of %d GPUs" % (cores, sum(gpus[n] for n in s)))
            if count > split * sum(gpus[n] for n in s):
                self.err("labels.sh", where, "%d HAMi pods, %d slots (deviceSplitCount %d)"
                         % (count, split * sum(gpus[n] for n in s), split))

    # -- DRA capacity ---------------------------------------------------------

    def claim_requests(self, doc):
        spec = doc.get("spec") or {}
        if doc.get("kind") == "ResourceClaimTemplate":
            spec = spec.get("spec") or {}
        devs = spec.get("devices") or {}
        return devs, devs.get("requests") or []

    def check_claims(self, pool_mps):
        biggest = max((g["memory_mib"] for g in self.models.values()), default=0)
        gates = ((self.driver or {}).get("featureGates") or {})
        any_cap = False
        for f, docs in sorted(self.docs.items()):
            for doc in docs:
                if not isinstance(doc, dict) or doc.get("kind") not in (
                        "ResourceClaim", "ResourceClaimTemplate"):
                    continue
                name = (doc.get("metadata") or {}).get("name")
                v1beta1 = str(doc.get("apiVersion", "")).endswith("/v1beta1")
                devs, reqs = self.claim_requests(doc)
                has_cap = False
                for r in reqs:
                    inner = r if v1beta1 else (r.get("exactly") or {})
                    if not v1beta1 and "capacity" in r:
                        self.err(f, name, "capacity must sit under exactly: in %s"
                                 % doc.get("apiVersion"))
                    cap = inner.get("capacity")
                    if cap is None:
                        continue
                    has_cap = any_cap = True
                    self.check_capacity(f, name, cap, biggest)
                mps = any(((c.get("opaque") or {}).get("parameters") or {}).get("sharing", {})
                          .get("strategy") == "MPS" for c in devs.get("config") or [])
                if has_cap and mps:
                    self.err(f, name, "a capacity claim with an MPS config: the DRA driver "
                             "refuses MPS with ConsumableShares")
                if mps and doc.get("kind") == "ResourceClaim":
                    pool_mps[(doc.get("metadata") or {}).get("namespace"), name] = doc
        if any_cap:
            f = "dra-driver-values.yaml"
            if self.driver is None:
                self.err(f, "/", "capacity claims need the driver's values")
            else:
                if gates.get("ConsumableShares") is not True:
                    self.err(f, "featureGates.ConsumableShares", "must be true for capacity "
                             "claims")
                if self.driver.get("consumableShares") != "memory":
                    self.err(f, "consumableShares", "%r: must be memory, so that a claim "
                             "that asks no memory keeps a whole GPU"
                             % self.driver.get("consumableShares"))
                if gates.get("MPSSupport") is True:
                    self.err(f, "featureGates.MPSSupport", "the driver refuses MPS with "
                             "ConsumableShares")

    def check_capacity(self, f, name, cap, biggest):
        if not isinstance(cap, dict) or set(cap) - {"requests"}:
            self.err(f, name, "capacity holds requests only")
            return
        for k, v in (cap.get("requests") or {}).items():
            if not re.fullmatch(r"([a-z0-9.-]+/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?",
                                str(k)):
                self.err(f, name, "capacity %r is not a qualified name" % k)
            b = quantity_bytes(v)
            if b is None:
                self.err(f, name, "capacity.requests.%s %r is not a quantity" % (k, v))
                continue
            if k != "memory":
                continue
            if b < (1 << 20) or b % (1 << 20):
                self.err(f, name, "memory %s: the driver counts whole MiB, at least 1Mi" % v)
            elif biggest and b > biggest << 20:
                self.err(f, name, "memory %s exceeds the largest GPU of the plan (%d MiB)"
                         % (v, biggest))

    # -- MPS clients ----------------------------------------------------------

    def mps_env(self, f, where, c):
        env = {e.get("name"): e.get("value") for e in c.get("env") or [] if isinstance(e, dict)}
        t, m = env.get("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), env.get(
            "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT")
        if t is None and m is None:
            return None
        tp = None
        if t is not None:
            if not is_int(t) or not 1 <= int(t) <= 100:
                self.err(f, where, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE %r: an integer "
                         "1..100" % t)
            else:
                tp = int(t)
        mib = None
        if m is not None:
            ents = str(m).split(",")
            for e in ents:
                mm = re.fullmatch(r"([0-9]+)=([0-9]+)([MG])", e.strip())
                if not mm:
                    self.err(f, where, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT %r: <ordinal>="
                             "<n>M|G entries" % m)
                    break
                if mm.group(1) == "0":
                    mib = int(mm.group(2)) * (1024 if mm.group(3) == "G" else 1)
        return tp, mib

    def check_mps_claims(self, clients, claims):
        for key, lst in sorted(clients.items(), key=lambda x: str(x[0])):
            ns, name = key
            doc = claims.get(key)
            if doc is None:
                for f, where, _, _, _ in lst:
                    self.err(f, where, "sets MPS limits, but its claim %s is no MPS "
                             "ResourceClaim of the set" % name)
                continue
            devs, _ = self.claim_requests(doc)
            mc = {}
            for c in devs.get("config") or []:
                mc = (((c.get("opaque") or {}).get("parameters") or {}).get("sharing") or {}
                      ).get("mpsConfig") or {}
            dt = mc.get("defaultActiveThreadPercentage")
            dm = quantity_bytes(mc.get("defaultPinnedDeviceMemoryLimit", ""))
            tot_m = tot_t = count = 0
            nodes = set()
            for f, where, tp, mib, (reps, lands) in lst:
                nodes.update(lands)
                count += reps
                if tp is not None and dt is not None and tp > int(dt):
                    self.err(f, where, "thread %% %d above the claim's default %s: a client "
                             "may only lower it" % (tp, dt))
                if mib is not None and dm is not None and (mib << 20) > dm:
                    self.err(f, where, "memory limit %d MiB above the claim's default %s: a "
                             "client may only lower it" % (mib, mc.get(
                                 "defaultPinnedDeviceMemoryLimit")))
                tot_m += reps * (mib or 0)
                tot_t += reps * (tp or 0)
            usable = min((g["memory_mib"] - g["reserve_mib"] for n, g in self.models.items()
                          if n in nodes), default=None)
            where = "claim %s/%s" % (ns, name)
            if usable is not None and tot_m > usable:
                self.err("resourceclaims.yaml", where, "its clients' memory limits sum to %d "
                         "MiB > %d MiB usable" % (tot_m, usable))
            if tot_t > 100:
                self.err("resourceclaims.yaml", where, "its clients' thread %% sum to %d > 100"
                         % tot_t)
            if count > MPS_CLIENTS:
                self.err("resourceclaims.yaml", where, "%d clients > %d" % (count,
                                                                           MPS_CLIENTS))

    # -- all ------------------------------------------------------------------

    def run(self):
        self.check_values()
        pool_load, clients, claims = [], {}, {}
        self.check_claims(claims)
        for kind, name, doc in self.objects:
            f = "%s %s" % (kind, name)
            ps = adv.pod_spec(kind, doc)
            pclaims = {c.get("name"): c.get("resourceClaimName")
                       for c in ps.get("resourceClaims") or [] if isinstance(c, dict)}
            ns = (doc.get("metadata") or {}).get("namespace")
            for c in ps.get("containers") or []:
                where = "container %s" % c.get("name")
                lim = (c.get("resources") or {}).get("limits") or {}
                if lim.get(MEM) is not None or lim.get(CORES) is not None:
                    self.check_hami_pod(f, where, kind, doc, c, pool_load)
                got = self.mps_env(f, where, c)
                if got is None:
                    continue
                names = [pclaims.get(x.get("name")) for x in
                         (c.get("resources") or {}).get("claims") or []]
                names = [x for x in names if x]
                if len(names) != 1:
                    self.err(f, where, "MPS limits need exactly one shared claim, it takes "
                             "%d" % len(names))
                    continue
                o = adv.Obj(kind, name, doc, None, False)
                clients.setdefault((ns, names[0]), []).append(
                    (f, where, got[0], got[1], (o.replicas, self.landing(kind, doc))))
        self.check_pool_loads(pool_load)
        self.check_mps_claims(clients, claims)
        return self.errors


def main(argv):
    args, profiles = [], None
    i = 1
    while i < len(argv):
        if argv[i] == "--profiles" and i + 1 < len(argv):
            profiles = argv[i + 1]
            i += 1
        elif argv[i] in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 1:
        sys.stderr.write("usage: fraction_check.py [--profiles DIRS] DIR\n")
        return 2
    try:
        ch = Checker(args[0], adv.Catalog(adv.profiles_dirs(profiles)))
        errors = ch.run()
    except (adv.Bad, OSError, ValueError, KeyError, TypeError, yaml.YAMLError) as e:
        sys.stderr.write("fraction_check.py: %s: %s\n" % (type(e).__name__, e))
        return 2
    for e in errors:
        print(e)
    print("fraction-check: %d files, %d errors" % (ch.files, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
