#!/usr/bin/env python3
"""feasible.py - an independent feasibility checker for gpushare plans.

usage: feasible.py PLAN.json GPUS.json INSTANCES.json [--target PERCENT]
                   [--workloads FILE.yaml]
       feasible.py --batch LIST GPUS.json INSTANCES.json

PLAN.json is `gpushare plan FILE --format json`, GPUS.json and
INSTANCES.json are `gpushare gpus --format json` and `gpushare instances
--format json`.  Every broken rule is printed as one line
`violation: RULE N: detail` and the exit status is 1; otherwise it prints
`ok: R replicas on G GPUs in N nodes` and exits 0.  Exit status 2 is a
usage error or unreadable input.  --target is the workload file's
targetUtilization in percent (default 90).  --workloads is the workload
file the plan was made from: its `fractions` list and each workload's
gpuMemory (rule 18; without it a fraction GPU's backend is not checked
against the file, and its caps only against the plan's rounded memory).
--batch reads lines `TARGET PLAN.json` or `TARGET PLAN.json<TAB>FILE.yaml`
from LIST and writes each plan's output to PLAN.json.check (what run.sh
uses: one Python start for many plans).  A plan with fraction GPUs says
how many: `ok: ... nodes (F fraction GPUs)`.

The rules are the normative packing rules of gpushare, written here from
their statement, not from the planner's code:

 1  every replica of every workload is placed exactly once
 2  nodes are catalog instances at catalog prices with all their GPUs
 3  the cost summary adds up exactly (decimal arithmetic); the workloads'
    and the teams' cost_per_hour plus idle_per_hour add up to the plan's
    cost, and cost.idle_per_hour to the idle of all teams
 4  a dedicated GPU holds one replica that fits its usable memory
 5  time-slicing: one tenant, compute <= target, and memory fits together:
    alone, the usable memory; several, the usable memory x (1 - H), H the
    largest memory_headroom_percent of their workloads
 6  MPS: one tenant, the device plugin's equal memory/thread split (of the
    memory the driver reports), summed memory within the usable memory
 7  MIG: a valid geometry, and each instance holds what fits it (several
    time-sliced in one: its memory x (1 - H), as in rule 5)
 8  isolation: fault means alone in a MIG instance or on a whole GPU
 9  spread: gpu / node
10  one sharing configuration per node
11  heavy workloads are never time-sliced
12  before >= after, utilisation within 0..100; dedicated_per_hour >=
    after; a plan in which no GPU holds two replicas saves nothing against
    the dedicated plan
13  showback: a workload's cost_per_hour is the capacity its replicas
    hold, each node's price over its GPUs times the replica's share of a
    GPU (a fault-isolated replica alone on a whole GPU, and each GPU of a
    replica of several: all of it; other
    replicas on whole GPUs: the larger of their memory and compute share;
    a MIG instance: the larger of its memory slices over the GPU's and its
    compute slices over the GPU's, all of it for a replica alone in it, the
    same larger share of the instance for time-sliced ones; shares of a GPU
    or instance over 1 scaled down to 1), within a small tolerance for the
    rounded figures of the JSON; a team's idle is its replicas' share, by
    what they hold, of what nobody holds on their nodes
14  host resources: the cpu and memory the replicas of a node request fit
    what the instance leaves its pods after the node reserve
    (gpushare-workloads(5) HOST RESOURCES: the EKS AMI's kube-reserved,
    evictionHard 100Mi and the GPU Operator's 5m / 64Mi)
15  arch: an amd64 workload never on an arm64 node, nor arm64 on amd64
16  one cloud: every node in the plan's cloud (cloud: all picks one)
17  gpusPerReplica N > 1 (gpus_per_replica): each replica holds N distinct
    whole GPUs of one node, dedicated and alone on each (it is listed on
    each of them, and rule 1 counts it once); under placement: robust a
    node that holds such a replica beside replicas of another span is a
    pool of its own (its pool label is on no other node: in a pool of
    several nodes smaller pods landing first could fragment its free
    GPUs), and its workloads' worst case fits it: each one's span times
    min(replicas, what the node holds of them; 1 with spread: node);
    showback counts each of its GPUs whole
18  fractions (gpushare-workloads(5) `fractions`): a GPU of strategy
    fraction only when the workload file lists fractions, with a backend
    it lists; never 1 replica alone, advertised as 0 replicas, with no
    memory headroom and all the usable memory as its capacity, one tenant,
    none with isolation: fault; each replica's memory_limit_mib its
    gpuMemory in whole MiB (rounded up) and its thread_percent its
    compute in whole percent (rounded up, at least 1; 0 under dra); the
    caps sum to at most the usable memory (catalog memory less its
    reserve, no headroom), the compute to at most the target, the thread
    limits to at most 100 under hami and mps; at most 10 clients under
    hami, the model's MPS clients under mps; a heavy replica (rule 11)
    only under mps, the others under the file's first backend (or mps on
    a node mps for a heavy one); one backend per node, whose config name
    ends in -frac-BACKEND; an unused GPU of a fraction node is a fraction
    GPU with no replicas

Numbers in the plan are read as decimals.  memory_gib and compute_percent
are rounded to 2 decimals, so every comparison allows 0.005 per rounded
term (a sum of n rounded values against a rounded capacity: (n+1)*0.005).

Python 3 standard library (PyYAML, when present, reads --workloads;
without it only a flow list `fractions: [...]` is read from the file).
"""

import json
import re
import sys
from decimal import Decimal, ROUND_CEILING, ROUND_HALF_UP, InvalidOperation

TOL = Decimal("0.005")
CPU_TOL = Decimal("0.0005")
BACKENDS = ("hami", "dra", "mps")
HAMI_MAX_CLIENTS = 10  # HAMi's default deviceSplitCount
SIZE_UNITS = {"GiB": 2 ** 30, "Gi": 2 ** 30, "MiB": 2 ** 20, "Mi": 2 ** 20,
              "GB": 10 ** 9, "MB": 10 ** 6}


def ceil_int(x):
    return int(Decimal(x).to_integral_value(rounding=ROUND_CEILING))


def size_mib(text):
    """A gpuMemory SIZE in whole MiB, rounded up (bytes rounded up first),
    or None when it is not written as gpushare-workloads(5) says."""
    m = re.match(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(GiB|Gi|MiB|Mi|GB|MB)\s*$", str(text))
    if m is None:
        return None
    nbytes = ceil_int(Decimal(m.group(1)) * SIZE_UNITS[m.group(2)])
    return ceil_int(Decimal(nbytes) / 2 ** 20)


def read_workload_file(path):
    """(fractions, {workload: gpuMemory MiB}) of a workload file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        import yaml
    except ImportError:
        m = re.search(r"^fractions:\s*\[([^\]]*)\]", text, re.M)
        fr = [x.strip().strip("\"'") for x in m.group(1).split(",")] if m else []
        return [x for x in fr if x], {}
    doc = yaml.safe_load(text) or {}
    fr = doc.get("fractions") or []
    if isinstance(fr, str):
        fr = [fr]
    mib = {}
    for w in doc.get("workloads") or []:
        if isinstance(w, dict) and "name" in w:
            mib[str(w["name"])] = size_mib(w.get("gpuMemory"))
    return [str(x) for x in fr], mib


def kube_reserved_cpu(vcpus):
    """kube-reserved CPU in millicores: 6% of the first core, 1% of the
    second, 0.5% of the next two, 0.25% of each further core, each range
    rounded down (integer arithmetic, as the EKS AMI's bootstrap does)."""
    total = vcpus * 1000
    reserved = 0
    for start, end, share in ((0, 1000, 600), (1000, 2000, 100), (2000, 4000, 50),
                              (4000, None, 25)):
        stop = total if end is None else min(total, end)
        if total > start:
            reserved += (stop - start) * share // 10000
    return reserved


def allocatable(inst):
    """(cores, GiB) an instance leaves its pods: kube-reserved (CPU above;
    memory 255Mi + 11Mi per pod, 110 pods, 250 above 30 vCPUs), the
    eviction threshold 100Mi and the NFD worker's 5m / 64Mi."""
    vcpus = int(inst["vcpus"])
    pods = 250 if vcpus > 30 else 110
    cpu = Decimal(vcpus * 1000 - kube_reserved_cpu(vcpus) - 5) / 1000
    mib = Decimal(str(inst["ram_gib"])) * 1024 - (255 + 11 * pods + 100 + 64)
    return cpu, mib / 1024
MIG_SHARE_TOL = Decimal("0.01")
HUNDRED = Decimal(100)


class Checker:
    def __init__(self, plan, gpus, instances, target, workfile=None):
        self.plan = plan
        # The workload file's fractions (None: not known) and gpuMemory MiB.
        self.fractions, self.file_mib = None, {}
        if workfile is not None:
            self.fractions, self.file_mib = workfile
        self.fraction_gpus = 0
        self.target = Decimal(target)
        self.out = []
        self.gpus = {}
        for g in gpus:
            self.gpus[g["name"]] = g
            self.gpus[g["name"].lower()] = g
        self.instances = {}
        for i in instances:
            self.instances[i["instance"]] = i
        self.wl = {}
        # placements: (workload, replica, node idx, gpu idx, mig idx|None,
        #              kind) where kind is the strategy of the container:
        #              dedicated | time-slicing | mps | mig-none |
        #              mig-time-slicing | mig-mps | other
        self.placed = []

    # -- helpers -------------------------------------------------------

    def v(self, rule, detail):
        self.out.append((rule, detail))

    @staticmethod
    def dec(x):
        if isinstance(x, Decimal):
            return x
        if isinstance(x, bool) or x is None:
            raise ValueError("not a number: %r" % (x,))
        return Decimal(str(x))

    def gpu_model(self, name):
        if name is None:
            return None
        return self.gpus.get(name) or self.gpus.get(str(name).lower())

    @staticmethod
    def mib_candidates(mem_gib):
        """The integer MiB amounts that display as mem_gib (2 decimals).

        The catalog shows memory as GiB rounded to 2 decimals, so the
        driver's MiB is any integer M with round(M/1024, 2) == mem_gib."""
        lo = (mem_gib - TOL) * 1024
        hi = (mem_gib + TOL) * 1024
        m_lo = int(lo.to_integral_value(rounding="ROUND_CEILING"))
        m_hi = int(hi.to_integral_value(rounding="ROUND_FLOOR"))
        return range(m_lo, m_hi + 1)

    def usable(self, gm):
        """What a GPU of the model offers one replica: the driver's memory
        less its reserve (older catalogs without the key: all of it)."""
        return self.dec(gm.get("usable_memory_gib", gm["memory_gib"]))

    def headroom(self, assignments):
        """The largest memory headroom (percent) of the replicas' workloads:
        what several of them time-slicing one GPU or instance keep free."""
        h = Decimal(0)
        for a in assignments:
            w = self.wl.get(a["workload"], {})
            h = max(h, self.dec(w.get("memory_headroom_percent", 0)))
        return h

    def shared_capacity(self, mem_gib, assignments):
        """Memory that replicas time-slicing a GPU or instance of mem_gib
        may hold together; one replica alone may hold all of it."""
        if len(assignments) < 2:
            return mem_gib
        return mem_gib * (HUNDRED - self.headroom(assignments)) / HUNDRED

    def where(self, ni, gi, mi=None):
        node = self.plan["nodes"][ni]
        s = "node %d (%s) gpu %d" % (ni, node.get("instance"), gi)
        if mi is not None:
            m = node["gpus"][gi]["mig"][mi]
            s += " MIG %s@%s" % (m.get("profile"), m.get("start"))
        return s

    # -- the checks ----------------------------------------------------

    def run(self):
        p = self.plan
        for w in p["workloads"]:
            if w["name"] in self.wl:
                self.v(1, "workload %r listed twice in workloads[]" % w["name"])
            self.wl[w["name"]] = w
        for ni, node in enumerate(p["nodes"]):
            self.check_node(ni, node)
        self.check_cloud()
        self.check_config_names()
        self.check_replicas()
        self.check_isolation()
        self.check_spread()
        self.check_advice()
        self.check_cost()
        self.check_showback()
        self.check_totals()
        return self.out

    def note_assignments(self, ni, gi, mi, kind, assignments):
        for a in assignments:
            name = a["workload"]
            w = self.wl.get(name)
            self.placed.append((name, a["replica"], ni, gi, mi, kind))
            if w is None:
                self.v(1, "%s: unknown workload %r" % (self.where(ni, gi, mi), name))
                continue
            mem = self.dec(a["memory_gib"])
            if abs(mem - self.dec(w["memory_gib"])) > TOL:
                self.v(1, "%s: %s/%s has memory %s GiB but the workload needs %s GiB"
                       % (self.where(ni, gi, mi), name, a["replica"], mem,
                          w["memory_gib"]))

    def tenants(self, assignments):
        t = []
        for a in assignments:
            w = self.wl.get(a["workload"])
            if w is not None and w["tenant"] not in t:
                t.append(w["tenant"])
        return t

    def faulty(self, assignments):
        return ["%s/%s" % (a["workload"], a["replica"]) for a in assignments
                if self.wl.get(a["workload"], {}).get("isolation") == "fault"]

    def check_node(self, ni, node):
        inst = self.instances.get(node["instance"])
        pricing = self.plan["cost"]["pricing"]
        gpus = node["gpus"]
        if inst is None:
            self.v(2, "node %d: instance %r is not in the catalog" % (ni, node["instance"]))
            model = None
        else:
            model = inst["gpu"]
            if node.get("cloud") != inst["cloud"]:
                self.v(2, "node %d (%s): cloud %r, catalog says %r"
                       % (ni, node["instance"], node.get("cloud"), inst["cloud"]))
            key = "spot_per_hour" if pricing == "spot" else "on_demand_per_hour"
            want = inst.get(key)
            price = self.dec(node["price_per_hour"])
            if want is None:
                self.v(2, "node %d (%s): %s pricing but the catalog has no %s"
                       % (ni, node["instance"], pricing, key))
            elif price != self.dec(want):
                self.v(2, "node %d (%s): price_per_hour %s, catalog %s is %s"
                       % (ni, node["instance"], price, key, want))
            if len(gpus) != inst["gpu_count"]:
                self.v(2, "node %d (%s): %d GPUs listed, the instance has %d"
                       % (ni, node["instance"], len(gpus), inst["gpu_count"]))
        idx = [g["index"] for g in gpus]
        if idx != list(range(len(gpus))):
            self.v(2, "node %d (%s): GPU indexes %s, expected 0..%d in order"
                   % (ni, node["instance"], idx, len(gpus) - 1))
        if inst is not None:
            self.check_host(ni, node, inst)
        for gi, g in enumerate(gpus):
            if model is not None and g["model"] != model:
                self.v(2, "%s: model %r, the instance has %r"
                       % (self.where(ni, gi), g["model"], model))
            gm = self.gpu_model(g["model"]) or self.gpu_model(model)
            if gm is None:
                self.v(2, "%s: GPU model %r is not in the catalog"
                       % (self.where(ni, gi), g["model"]))
                continue
            self.check_gpu(ni, gi, g, gm)
        self.check_node_config(ni, node)

    def node_replicas(self, node):
        """The workloads of every replica on the node, once per replica (a
        replica of several GPUs is listed on each of them)."""
        out, seen = [], set()
        for g in node["gpus"]:
            asg = list(g.get("assignments") or [])
            for m in g.get("mig") or []:
                asg += m.get("assignments") or []
            for a in asg:
                key = (a["workload"], a["replica"])
                if key not in seen:
                    seen.add(key)
                    out.append(self.wl.get(a["workload"]))
        return [w for w in out if w is not None]

    def check_host(self, ni, node, inst):
        name = "node %d (%s)" % (ni, node["instance"])
        arch = inst.get("arch", "amd64")
        if node.get("arch", arch) != arch:
            self.v(15, "%s: arch %s, the catalog says %s" % (name, node.get("arch"), arch))
        reps = self.node_replicas(node)
        for w in reps:
            want = w.get("arch", "amd64")
            if want not in ("any", arch):
                self.v(15, "%s: %s (arch %s) on an %s node" % (name, w["name"], want, arch))
        cpu_room, mem_room = allocatable(inst)
        cpus = [self.dec(w["cpu"]) for w in reps if w.get("cpu") is not None]
        mems = [self.dec(w["host_memory_gib"]) for w in reps
                if w.get("host_memory_gib") is not None]
        cpu, mem = sum(cpus, Decimal(0)), sum(mems, Decimal(0))
        if cpu > cpu_room + CPU_TOL:
            self.v(14, "%s: its replicas request %s cpu, it leaves its pods %s"
                   % (name, cpu, cpu_room))
        if mem > mem_room + (len(mems) + 1) * TOL:
            self.v(14, "%s: its replicas request %s GiB, it leaves its pods %.3f GiB"
                   % (name, mem, mem_room))
        if ("allocatable_cpu" in node
                and abs(self.dec(node["allocatable_cpu"]) - cpu_room) > CPU_TOL):
            self.v(14, "%s: allocatable_cpu %s, the reserve leaves %s"
                   % (name, node["allocatable_cpu"], cpu_room))
        if ("allocatable_memory_gib" in node
                and abs(self.dec(node["allocatable_memory_gib"]) - mem_room) > TOL):
            self.v(14, "%s: allocatable_memory_gib %s, the reserve leaves %.3f"
                   % (name, node["allocatable_memory_gib"], mem_room))
        if "requested_cpu" in node and abs(self.dec(node["requested_cpu"]) - cpu) > CPU_TOL:
            self.v(14, "%s: requested_cpu %s, its replicas request %s"
                   % (name, node["requested_cpu"], cpu))
        if ("requested_memory_gib" in node and abs(self.dec(node["requested_memory_gib"]) - mem)
                > (len(mems) + 1) * TOL):
            self.v(14, "%s: requested_memory_gib %s, its replicas request %s"
                   % (name, node["requested_memory_gib"], mem))

    def check_gpu(self, ni, gi, g, gm):
        st = g["strategy"]
        asg = g.get("assignments") or []
        mig = g.get("mig") or []
        where = self.where(ni, gi)
        gmem = self.usable(gm)
        target = self.target
        if st != "mig" and mig:
            self.v(7, "%s: strategy %s but it lists %d MIG instances"
                   % (where, st, len(mig)))
        if st == "dedicated":
            self.note_assignments(ni, gi, None, "dedicated", asg)
            if len(asg) > 1:
                self.v(4, "%s: dedicated GPU with %d assignments" % (where, len(asg)))
            for a in asg:
                mem, cpu = self.dec(a["memory_gib"]), self.dec(a["compute_percent"])
                if mem > gmem + 2 * TOL:
                    self.v(4, "%s: %s/%s needs %s GiB, the GPU has %s GiB usable"
                           % (where, a["workload"], a["replica"], mem, gmem))
                if cpu > HUNDRED + TOL:
                    self.v(4, "%s: %s/%s needs %s%% compute"
                           % (where, a["workload"], a["replica"], cpu))
        elif st == "time-slicing":
            self.note_assignments(ni, gi, None, "time-slicing", asg)
            n = len(asg)
            t = self.tenants(asg)
            if len(t) > 1:
                self.v(5, "%s: time-slicing GPU shared by tenants %s" % (where, ", ".join(t)))
            mem = sum((self.dec(a["memory_gib"]) for a in asg), Decimal(0))
            cap = self.shared_capacity(gmem, asg)
            if mem > cap + (n + 1) * TOL:
                self.v(5, "%s: time-sliced replicas need %s GiB together, the GPU offers "
                          "%s GiB (%s GiB usable, %s%% headroom)"
                       % (where, mem, cap, gmem, self.headroom(asg) if n > 1 else 0))
            cpu = sum((self.dec(a["compute_percent"]) for a in asg), Decimal(0))
            if n >= 2 and cpu > target + n * TOL:
                self.v(5, "%s: time-sliced compute %s%% exceeds the target %s%%"
                       % (where, cpu, target))
            k = g["replicas"]
            if k < 2 or k < n:
                self.v(5, "%s: time-slicing advertises %s replicas for %d assignments"
                       % (where, k, n))
            f = self.faulty(asg)
            if f:
                self.v(5, "%s: fault-isolated %s time-sliced" % (where, ", ".join(f)))
        elif st == "mps":
            self.note_assignments(ni, gi, None, "mps", asg)
            self.check_mps(where, g, gm, asg)
        elif st == "fraction":
            self.note_assignments(ni, gi, None, "fraction", asg)
            self.fraction_gpus += 1 if asg else 0
            self.check_fraction(where, g, gm, asg)
        elif st == "mig":
            self.note_assignments(ni, gi, None, "other", asg)
            if asg:
                self.v(7, "%s: MIG GPU with %d whole-GPU assignments" % (where, len(asg)))
            self.check_mig(ni, gi, g, gm)
        else:
            self.note_assignments(ni, gi, None, "other", asg)
            self.v(4, "%s: unknown strategy %r" % (where, st))

    def check_mps(self, where, g, gm, asg):
        n = len(asg)
        k = g["replicas"]
        maxc = gm.get("mps_max_clients") or 0
        t = self.tenants(asg)
        if len(t) > 1:
            self.v(6, "%s: MPS GPU shared by tenants %s" % (where, ", ".join(t)))
        if maxc <= 0:
            self.v(6, "%s: %s has no MPS" % (where, gm["name"]))
        if not (n <= k and (maxc <= 0 or k <= maxc)) or k < 1:
            self.v(6, "%s: MPS with %d assignments advertises %s clients (max %d)"
                   % (where, n, k, maxc))
        if k >= 1:
            want_tp = 100 // k
            gmem = self.dec(gm["memory_gib"])
            limits = {m // k for m in self.mib_candidates(gmem)}
            for a in asg:
                who = "%s/%s" % (a["workload"], a["replica"])
                tp, lim = a.get("thread_percent"), a.get("memory_limit_mib")
                if tp is None or lim is None:
                    self.v(6, "%s: MPS assignment %s without thread_percent/memory_limit_mib"
                           % (where, who))
                    continue
                if tp != want_tp:
                    self.v(6, "%s: %s thread_percent %s, expected 100//%d = %d"
                           % (where, who, tp, k, want_tp))
                if lim not in limits:
                    self.v(6, "%s: %s memory_limit_mib %s, expected floor(%s GiB in MiB / %d) = %s"
                           % (where, who, lim, gmem, k,
                              "..".join(str(x) for x in sorted({min(limits), max(limits)}))))
                mem = self.dec(a["memory_gib"])
                if mem * 1024 > self.dec(lim) + TOL * 1024:
                    self.v(6, "%s: %s needs %s GiB = %s MiB over its limit %s MiB"
                           % (where, who, mem, mem * 1024, lim))
                cpu = self.dec(a["compute_percent"])
                if cpu > self.dec(tp) + TOL:
                    self.v(6, "%s: %s needs %s%% compute over its thread limit %s%%"
                           % (where, who, cpu, tp))
        cpu = sum((self.dec(a["compute_percent"]) for a in asg), Decimal(0))
        if cpu > self.target + n * TOL:
            self.v(6, "%s: MPS compute %s%% exceeds the target %s%%" % (where, cpu, self.target))
        mem = sum((self.dec(a["memory_gib"]) for a in asg), Decimal(0))
        if mem > self.usable(gm) + (n + 1) * TOL:
            self.v(6, "%s: MPS replicas need %s GiB together, the GPU has %s GiB usable"
                   % (where, mem, self.usable(gm)))
        f = self.faulty(asg)
        if f:
            self.v(6, "%s: fault-isolated %s under MPS" % (where, ", ".join(f)))

    def heavy(self, w):
        """The study's rule: a workload never time-sliced (rule 11)."""
        c = self.dec(w["compute_percent"])
        return ((w["kind"] == "inference" and w["latency"] == "critical" and c >= 50)
                or (w["kind"] in ("batch", "training") and c >= 70))

    def usable_mib(self, gm):
        """The most MiB a GPU of the model offers its clients: the largest
        driver memory its rounded catalog figure allows, less the reserve."""
        if "memory_reserve_mib" not in gm:
            return self.usable(gm) * 1024 + TOL * 1024
        top = max(self.mib_candidates(self.dec(gm["memory_gib"])))
        return Decimal(top - int(gm["memory_reserve_mib"]))

    def check_fraction(self, where, g, gm, asg):
        """Rule 18 on one fraction GPU."""
        b = g.get("backend")
        n = len(asg)
        fr = self.fractions
        if fr is not None and not fr:
            self.v(18, "%s: a fraction GPU (backend %s), but the workload file lists no "
                       "fractions" % (where, b))
        elif fr is not None and b not in fr:
            self.v(18, "%s: backend %r, the workload file's fractions are [%s]"
                   % (where, b, ", ".join(fr)))
        if b not in BACKENDS:
            self.v(18, "%s: unknown fraction backend %r" % (where, b))
        # An unused GPU of a fraction node is under the node's configuration.
        if n == 1:
            self.v(18, "%s: a fraction GPU with 1 replica" % where)
        if g.get("replicas") != 0:
            self.v(18, "%s: a fraction GPU advertises %s replicas, not 0"
                   % (where, g.get("replicas")))
        t = self.tenants(asg)
        if len(t) > 1:
            self.v(18, "%s: fraction GPU shared by tenants %s" % (where, ", ".join(t)))
        f = self.faulty(asg)
        if f:
            self.v(18, "%s: fault-isolated %s on a fraction GPU" % (where, ", ".join(f)))
        caps, threads = 0, 0
        for a in asg:
            who = "%s/%s" % (a["workload"], a["replica"])
            tp, lim = a.get("thread_percent"), a.get("memory_limit_mib")
            if tp is None or lim is None:
                self.v(18, "%s: fraction assignment %s without thread_percent/"
                           "memory_limit_mib" % (where, who))
                continue
            caps += lim
            threads += tp
            self.check_fraction_limits(where, b, a, who, tp, lim)
        self.check_fraction_memory_keys(where, g, gm, asg)
        room = self.usable_mib(gm)
        if caps > room:
            self.v(18, "%s: memory caps sum to %d MiB, the GPU has %s MiB usable"
                   % (where, caps, room))
        cpu = sum((self.dec(a["compute_percent"]) for a in asg), Decimal(0))
        if cpu > self.target + n * TOL:
            self.v(18, "%s: fraction compute %s%% exceeds the target %s%%"
                   % (where, cpu, self.target))
        if b in ("hami", "mps") and threads > 100:
            self.v(18, "%s: SM limits sum to %d%% under %s" % (where, threads, b))
        if b == "hami" and n > HAMI_MAX_CLIENTS:
            self.v(18, "%s: %d HAMi clients, at most %d" % (where, n, HAMI_MAX_CLIENTS))
        if b == "mps":
            maxc = gm.get("mps_max_clients") or 0
            if n > maxc:
                self.v(18, "%s: %d MPS clients, %s takes at most %d"
                       % (where, n, gm["name"], maxc))

    def check_fraction_memory_keys(self, where, g, gm, asg):
        """The caps are enforced: no headroom, all the usable memory."""
        if not asg:
            return
        h = g.get("memory_headroom_percent")
        if h is not None and self.dec(h) != 0:
            self.v(18, "%s: a fraction GPU keeps %s%% headroom" % (where, h))
        cap = g.get("memory_capacity_gib")
        if cap is not None and abs(self.dec(cap) - self.usable(gm)) > TOL:
            self.v(18, "%s: memory_capacity_gib %s, the GPU has %s GiB usable"
                   % (where, cap, self.usable(gm)))
        planned = g.get("memory_planned_gib")
        mem = sum((self.dec(a["memory_gib"]) for a in asg), Decimal(0))
        if planned is not None and abs(self.dec(planned) - mem) > (len(asg) + 1) * TOL:
            self.v(18, "%s: memory_planned_gib %s, its replicas need %s GiB"
                   % (where, planned, mem))

    def check_fraction_limits(self, where, b, a, who, tp, lim):
        """One client's memory cap and SM limit."""
        mem = self.dec(a["memory_gib"])
        want = self.file_mib.get(a["workload"])
        if want is not None:
            if lim != want:
                self.v(18, "%s: %s memory_limit_mib %s, its gpuMemory is %d MiB"
                       % (where, who, lim, want))
        else:
            lo, hi = ceil_int((mem - TOL) * 1024), ceil_int((mem + TOL) * 1024)
            if not lo <= lim <= hi:
                self.v(18, "%s: %s memory_limit_mib %s, its %s GiB is %d..%d MiB"
                       % (where, who, lim, mem, lo, hi))
        cpu = self.dec(a["compute_percent"])
        if b == "dra":
            ok = {0}
        else:
            ok = {max(1, ceil_int(cpu - TOL)), max(1, ceil_int(cpu + TOL))}
        if tp not in ok:
            self.v(18, "%s: %s thread_percent %s under %s, expected %s (compute %s%%)"
                   % (where, who, tp, b, " or ".join(map(str, sorted(ok))), cpu))

    def check_fraction_backends(self, ni, node):
        """Heavy replicas only under mps (hami and dra time-slice compute);
        the others under the file's first backend, unless their GPU's node
        is mps for a heavy replica (one backend per node)."""
        fgpus = [(gi, g) for gi, g in enumerate(node["gpus"]) if g["strategy"] == "fraction"]
        heavy_node = False
        for gi, g in fgpus:
            for a in g.get("assignments") or []:
                w = self.wl.get(a["workload"])
                if w is None or not self.heavy(w):
                    continue
                heavy_node = True
                if g.get("backend") != "mps":
                    self.v(18, "%s: %s/%s (%s, latency %s, %s%% compute) may not be "
                               "time-sliced, yet its backend is %s"
                           % (self.where(ni, gi), a["workload"], a["replica"], w["kind"],
                              w["latency"], w["compute_percent"], g.get("backend")))
        first = self.fractions[0] if self.fractions else None
        if heavy_node or first is None:
            return
        for gi, g in fgpus:
            if g.get("backend") != first:
                self.v(18, "%s: backend %s, but no replica on its node is kept off "
                           "time-slicing: the file's first backend is %s"
                       % (self.where(ni, gi), g.get("backend"), first))

    def check_mig(self, ni, gi, g, gm):
        where = self.where(ni, gi)
        profiles = {p["name"]: p for p in (gm.get("mig_profiles") or [])}
        if not profiles:
            self.v(7, "%s: %s has no MIG" % (where, gm["name"]))
        share_gpu = self.dec(gm["sm_count"])
        windows = []
        counts = {}
        for mi, m in enumerate(g.get("mig") or []):
            mw = self.where(ni, gi, mi)
            asg = m.get("assignments") or []
            ms = m.get("strategy")
            kind = {"none": "mig-none", "time-slicing": "mig-time-slicing",
                    "mps": "mig-mps"}.get(ms, "other")
            self.note_assignments(ni, gi, mi, kind, asg)
            prof = profiles.get(m["profile"])
            if prof is None:
                if profiles:
                    self.v(7, "%s: %s has no MIG profile %r"
                           % (mw, gm["name"], m["profile"]))
                continue
            start = m["start"]
            starts = [pl["start"] for pl in prof["placements"]]
            if start not in starts:
                self.v(7, "%s: start %s is not a legal start of %s (legal: %s)"
                       % (mw, start, prof["name"], starts))
            size = prof["memory_slices"]
            windows.append((start, start + size, mi))
            counts[prof["name"]] = counts.get(prof["name"], 0) + 1
            pmem = self.dec(prof["memory_gib"])
            share = self.dec(prof["sm_count"]) / share_gpu * HUNDRED
            n = len(asg)
            if ms == "none":
                if n != 1:
                    self.v(7, "%s: unshared MIG instance with %d assignments" % (mw, n))
                for a in asg:
                    mem, cpu = self.dec(a["memory_gib"]), self.dec(a["compute_percent"])
                    if mem > pmem + 2 * TOL:
                        self.v(7, "%s: %s/%s needs %s GiB, the profile has %s GiB"
                               % (mw, a["workload"], a["replica"], mem, pmem))
                    if cpu > share + MIG_SHARE_TOL:
                        self.v(7, "%s: %s/%s needs %s%% compute, the profile gives %.2f%%"
                               % (mw, a["workload"], a["replica"], cpu, share))
            elif ms == "time-slicing":
                if n < 1:
                    self.v(7, "%s: time-sliced MIG instance with no assignments" % mw)
                t = self.tenants(asg)
                if len(t) > 1:
                    self.v(7, "%s: time-sliced MIG instance shared by tenants %s"
                           % (mw, ", ".join(t)))
                mem = sum((self.dec(a["memory_gib"]) for a in asg), Decimal(0))
                cap = self.shared_capacity(pmem, asg)
                if mem > cap + (n + 1) * TOL:
                    self.v(7, "%s: time-sliced replicas need %s GiB together, the profile "
                              "offers %s GiB (%s GiB, %s%% headroom)"
                           % (mw, mem, cap, pmem, self.headroom(asg) if n > 1 else 0))
                cpu = sum((self.dec(a["compute_percent"]) for a in asg), Decimal(0))
                cap = self.target / HUNDRED * share
                if cpu > cap + MIG_SHARE_TOL + n * TOL:
                    self.v(7, "%s: time-sliced compute %s%% exceeds %s%% of the profile's %.2f%% = %.2f%%"
                           % (mw, cpu, self.target, share, cap))
                if m.get("replicas", 0) < n:
                    self.v(7, "%s: advertises %s replicas for %d assignments"
                           % (mw, m.get("replicas"), n))
            elif ms == "mps":
                pass  # rule 10: MPS never on a node with MIG
            else:
                self.v(7, "%s: unknown MIG instance strategy %r" % (mw, ms))
        windows.sort()
        for i, (s1, e1, m1) in enumerate(windows):
            for s2, e2, m2 in windows[i + 1:]:
                if s2 >= e1:
                    break
                self.v(7, "%s: MIG instances %d [%d,%d) and %d [%d,%d) overlap"
                       % (where, m1, s1, e1, m2, s2, e2))
        for name, c in sorted(counts.items()):
            if c > profiles[name]["max_count"]:
                self.v(7, "%s: %d instances of %s, at most %d"
                       % (where, c, name, profiles[name]["max_count"]))

    def node_signature(self, ni, node):
        """(strategies, replicas) of a node's device-plugin configuration;
        replicas is an int for whole GPUs and {profile: replicas} for MIG."""
        strategies = sorted({g["strategy"] + ("/" + str(g.get("backend"))
                                              if g["strategy"] == "fraction" else "")
                             for g in node["gpus"]})
        whole = sorted({g["replicas"] for g in node["gpus"] if g["strategy"] != "mig"})
        prof = {}
        for g in node["gpus"]:
            for m in g.get("mig") or []:
                prof.setdefault(m["profile"], set()).add(m.get("replicas"))
        return strategies, whole, prof

    def check_node_config(self, ni, node):
        strategies, whole, prof = self.node_signature(ni, node)
        name = "node %d (%s, config %s)" % (ni, node["instance"], node.get("config"))
        if len(strategies) > 1:
            self.v(10, "%s: GPUs with different strategies %s" % (name, ", ".join(strategies)))
        shared = sorted({g["replicas"] for g in node["gpus"]
                         if g["strategy"] in ("time-slicing", "mps")})
        if len(shared) > 1:
            self.v(10, "%s: time-slicing/MPS GPUs advertise different replicas %s"
                   % (name, shared))
        has_mig = any(g["strategy"] == "mig" for g in node["gpus"])
        has_mps = any(g["strategy"] == "mps" for g in node["gpus"]) or any(
            m.get("strategy") == "mps" for g in node["gpus"] for m in g.get("mig") or [])
        if has_mig and has_mps:
            self.v(10, "%s: MPS on a node with MIG GPUs" % name)
        for p, reps in sorted(prof.items()):
            if len(reps) > 1:
                self.v(10, "%s: MIG profile %s with different replicas %s"
                       % (name, p, sorted(reps, key=str)))
        self.check_fraction_backends(ni, node)
        backends = sorted({str(g.get("backend")) for g in node["gpus"]
                           if g["strategy"] == "fraction"})
        if len(backends) > 1:
            self.v(18, "%s: fraction GPUs with different backends %s"
                   % (name, ", ".join(backends)))
        for b in backends:
            if not str(node.get("config")).endswith("-frac-" + b):
                self.v(18, "%s: fraction GPUs under %s, the config name does not end in "
                           "-frac-%s" % (name, b, b))

    def check_cloud(self):
        clouds = sorted({n.get("cloud") for n in self.plan["nodes"]}, key=str)
        if len(clouds) > 1:
            self.v(16, "nodes in several clouds: %s" % ", ".join(map(str, clouds)))
        want = self.plan.get("cloud")
        if want is not None and clouds and clouds != [want]:
            self.v(16, "the plan's cloud is %s, its nodes are in %s"
                   % (want, ", ".join(map(str, clouds))))
        alts = self.plan.get("cloud_alternatives") or []
        chosen = [a for a in alts if a.get("chosen")]
        if alts and (len(chosen) != 1 or chosen[0].get("cloud") != want):
            self.v(16, "cloud_alternatives marks %s chosen, the plan's cloud is %s"
                   % ([a.get("cloud") for a in chosen], want))
        for a in alts:
            if a.get("status") == "planned" and not a.get("chosen"):
                cost = self.dec(a["after_per_hour"])
                if cost < self.dec(self.plan["cost"]["after_per_hour"]):
                    self.v(16, "cloud %s costs %s, less than the chosen %s"
                           % (a["cloud"], cost, self.plan["cost"]["after_per_hour"]))

    def check_config_names(self):
        seen = {}
        for ni, node in enumerate(self.plan["nodes"]):
            seen.setdefault(node.get("config"), []).append(ni)
        for cfg, nis in seen.items():
            if len(nis) < 2:
                continue
            first = self.plan["nodes"][nis[0]]
            s0, w0, p0 = self.node_signature(nis[0], first)
            for ni in nis[1:]:
                node = self.plan["nodes"][ni]
                s, w, p = self.node_signature(ni, node)
                diff = []
                if node["instance"] != first["instance"]:
                    diff.append("instance %s vs %s" % (first["instance"], node["instance"]))
                if s != s0:
                    diff.append("strategy %s vs %s" % ("/".join(s0), "/".join(s)))
                if w != w0:
                    diff.append("replicas %s vs %s" % (w0, w))
                for prof in sorted(set(p0) & set(p)):
                    if p0[prof] != p[prof]:
                        diff.append("MIG %s replicas %s vs %s"
                                    % (prof, sorted(p0[prof], key=str), sorted(p[prof], key=str)))
                if diff:
                    self.v(10, "config %r names nodes %d and %d that differ: %s"
                           % (cfg, nis[0], ni, "; ".join(diff)))

    def span(self, name):
        """The whole GPUs one replica of the workload holds (rule 17)."""
        return int(self.wl.get(name, {}).get("gpus_per_replica", 1))

    def check_wide(self, name, r, locs):
        """Rule 17: a replica of N GPUs on N distinct whole GPUs of one
        node, alone and dedicated on each."""
        n = self.span(name)
        if len({l[0] for l in locs}) > 1:
            self.v(17, "%s/%d (%d GPUs per replica) is split across nodes: %s"
                   % (name, r, n, "; ".join(self.where(*l) for l in locs)))
        if len(set(locs)) != len(locs):
            self.v(17, "%s/%d is listed twice on one GPU" % (name, r))
        for ni, gi, mi in locs:
            g = self.plan["nodes"][ni]["gpus"][gi]
            if mi is not None or g["strategy"] != "dedicated" or \
                    len(g.get("assignments") or []) != 1:
                self.v(17, "%s/%d (%d GPUs per replica) is not alone on a dedicated GPU "
                       "at %s" % (name, r, n, self.where(ni, gi, mi)))

    def check_spans(self):
        """Rule 17 under placement: robust: a node that mixes a span of
        several GPUs with others is a pool of its own, and holds every
        replica its pool admits at once."""
        if self.plan.get("placement", "robust") != "robust":
            return
        pools = {}
        for node in self.plan["nodes"]:
            pools[node.get("pool")] = pools.get(node.get("pool"), 0) + 1
        for ni, node in enumerate(self.plan["nodes"]):
            names = sorted({w["name"] for w in self.node_replicas(node)})
            spans = sorted({self.span(n) for n in names})
            if len(spans) < 2 or spans[-1] < 2:
                continue
            if pools.get(node.get("pool")) != 1:
                self.v(17, "node %d (%s): replicas of %s GPUs each share it under "
                       "placement: robust, and its pool %r has %d nodes"
                       % (ni, node["instance"], " and ".join(map(str, spans)),
                          node.get("pool"), pools.get(node.get("pool"), 0)))
            gpus = len(node["gpus"])
            worst = 0
            for n in names:
                w = self.wl.get(n, {})
                most = 1 if w.get("spread") == "node" else int(w.get("replicas", 1))
                worst += self.span(n) * min(most, gpus // self.span(n))
            if worst > gpus:
                self.v(17, "node %d (%s): its workloads %s may land %d GPUs of pods "
                       "on its %d under placement: robust"
                       % (ni, node["instance"], ", ".join(names), worst, gpus))

    def check_replicas(self):
        seen = {}
        for name, r, ni, gi, mi, kind in self.placed:
            seen.setdefault((name, r), []).append((ni, gi, mi))
        total = 0
        self.check_spans()
        for name, w in self.wl.items():
            n = w["replicas"]
            span = self.span(name)
            total += n
            for r in range(n):
                locs = seen.get((name, r), [])
                if not locs:
                    self.v(1, "%s/%d is not placed" % (name, r))
                elif len(locs) != span:
                    self.v(1, "%s/%d is placed %d times%s: %s"
                           % (name, r, len(locs),
                              "" if span == 1 else ", not on its %d GPUs" % span,
                              "; ".join(self.where(*l) for l in locs)))
                if span > 1 and locs:
                    self.check_wide(name, r, locs)
        for (name, r), locs in seen.items():
            w = self.wl.get(name)
            if w is not None and not (isinstance(r, int) and 0 <= r < w["replicas"]):
                self.v(1, "%s/%s: no such replica (the workload has %d)"
                       % (name, r, w["replicas"]))
        if self.plan.get("replicas") != total:
            self.v(1, "replicas is %s, the workloads have %d" % (self.plan.get("replicas"), total))

    def container(self, ni, gi, mi):
        g = self.plan["nodes"][ni]["gpus"][gi]
        if mi is None:
            return g.get("assignments") or []
        return g["mig"][mi].get("assignments") or []

    def check_isolation(self):
        for name, r, ni, gi, mi, kind in self.placed:
            w = self.wl.get(name)
            if w is None or w["isolation"] != "fault":
                continue
            alone = len(self.container(ni, gi, mi)) == 1
            if kind not in ("dedicated", "mig-none") or not alone:
                self.v(8, "%s/%s (isolation: fault) is on %s as %s%s"
                       % (name, r, self.where(ni, gi, mi), kind,
                          "" if alone else " with others"))

    def check_spread(self):
        by = {}
        for name, r, ni, gi, mi, kind in self.placed:
            w = self.wl.get(name)
            if w is None or w["spread"] == "none":
                continue
            key = (name, ni, gi) if w["spread"] == "gpu" else (name, ni)
            # A replica of several GPUs is listed on each: once per node.
            if r not in by.setdefault(key, []):
                by[key].append(r)
        for key, rs in sorted(by.items(), key=lambda kv: str(kv[0])):
            if len(rs) > 1:
                w = self.wl[key[0]]
                at = ("node %d gpu %d" % (key[1], key[2]) if w["spread"] == "gpu"
                      else "node %d" % key[1])
                self.v(9, "%s (spread: %s) has replicas %s on %s"
                       % (key[0], w["spread"], sorted(rs, key=str), at))

    def check_advice(self):
        for name, r, ni, gi, mi, kind in self.placed:
            w = self.wl.get(name)
            if w is None:
                continue
            if self.heavy(w) and kind in ("time-slicing", "mig-time-slicing"):
                self.v(11, "%s/%s (%s, latency %s, %s%% compute) is time-sliced on %s"
                       % (name, r, w["kind"], w["latency"], w["compute_percent"],
                          self.where(ni, gi, mi)))

    def check_cost(self):
        c = self.plan["cost"]
        d = self.dec
        before, after = d(c["before_per_hour"]), d(c["after_per_hour"])
        nodes = sum((d(n["price_per_hour"]) for n in self.plan["nodes"]), Decimal(0))
        if after != nodes:
            self.v(3, "after_per_hour %s, the nodes cost %s" % (after, nodes))
        sav = d(c["savings_per_hour"])
        if sav != before - after:
            self.v(3, "savings_per_hour %s, before - after = %s" % (sav, before - after))
        if before != 0:
            want = (Decimal(1000) * (before - after) / before).quantize(
                Decimal(1), rounding=ROUND_HALF_UP) / 10
        else:
            want = Decimal(0)
        if d(c["savings_percent"]) != want:
            self.v(3, "savings_percent %s, expected %s" % (c["savings_percent"], want))
        h = c["hours_per_month"]
        for k in ("before", "after", "savings"):
            hourly = before if k == "before" else after if k == "after" else sav
            got = d(c["%s_per_month" % k])
            if got != hourly * h:
                self.v(3, "%s_per_month %s, %s x %s = %s" % (k, got, hourly, h, hourly * h))
        wls = self.plan["workloads"]
        wsum = sum((d(w["cost_per_hour"]) + d(w["idle_per_hour"]) for w in wls), Decimal(0))
        if wsum != after:
            self.v(3, "the workloads' cost_per_hour + idle_per_hour add up to %s, "
                   "after_per_hour is %s" % (wsum, after))
        idle = sum((d(w["idle_per_hour"]) for w in wls), Decimal(0))
        if d(c["idle_per_hour"]) != idle:
            self.v(3, "cost.idle_per_hour %s, the workloads' idle adds up to %s"
                   % (c["idle_per_hour"], idle))
        teams = {}
        for w in wls:
            cost, idle = teams.get(w["team"], (Decimal(0), Decimal(0)))
            teams[w["team"]] = (cost + d(w["cost_per_hour"]), idle + d(w["idle_per_hour"]))
        listed = {}
        for t in self.plan.get("teams") or []:
            if t["team"] in listed:
                self.v(3, "team %r listed twice" % t["team"])
            listed[t["team"]] = (d(t["cost_per_hour"]), d(t["idle_per_hour"]))
        for t in sorted(set(teams) | set(listed)):
            if teams.get(t) != listed.get(t):
                self.v(3, "team %r costs (cost, idle) %s in teams[], its workloads add up "
                       "to %s" % (t, listed.get(t), teams.get(t)))
        if before < after and c["before_is"] == "dedicated":
            self.v(12, "before_per_hour %s < after_per_hour %s" % (before, after))
        ded = d(c["dedicated_per_hour"])
        if ded < after:
            self.v(12, "dedicated_per_hour %s < after_per_hour %s" % (ded, after))
        if c["before_is"] == "dedicated" and ded != before:
            self.v(12, "before is the dedicated plan, but before_per_hour %s and "
                   "dedicated_per_hour %s differ" % (before, ded))
        if self.shares_nothing() and ded != after:
            self.v(12, "no GPU holds two replicas, yet the plan costs %s against %s for the "
                   "dedicated plan" % (after, ded))

    def shares_nothing(self):
        for node in self.plan["nodes"]:
            for g in node["gpus"]:
                n = len(g.get("assignments") or [])
                n += sum(len(m.get("assignments") or []) for m in g.get("mig") or [])
                if n > 1:
                    return False
        return True

    # -- showback (rule 13) ------------------------------------------------

    @staticmethod
    def scaled(shares):
        tot = sum(shares, Decimal(0))
        if tot <= 1:
            return shares
        return [x / tot for x in shares]

    def need(self, a, mem_gib, comp_percent):
        """The larger of a replica's memory share and compute share."""
        w = self.wl.get(a["workload"], {})
        mem = self.dec(w.get("memory_gib", a["memory_gib"]))
        # The file's exact gpuMemory where known: the plan's 2 decimals of
        # GiB are off by up to 0.005 GiB, a lot of a small replica's share.
        if self.file_mib.get(a["workload"]) is not None:
            mem = Decimal(self.file_mib[a["workload"]]) / 1024
        mem /= mem_gib
        cpu = self.dec(a["compute_percent"]) / comp_percent
        return min(max(mem, cpu), Decimal(1))

    def gpu_claims(self, g, gm):
        """[(workload, share of the GPU)] for one GPU by the showback rule."""
        out = []
        if g["strategy"] != "mig":
            asg = g.get("assignments") or []
            gmem = self.dec(gm["memory_gib"])
            sh = []
            for a in asg:
                w = self.wl.get(a["workload"], {})
                alone = (len(asg) == 1 and g["strategy"] == "dedicated" and
                         (w.get("isolation") == "fault" or
                          int(w.get("gpus_per_replica", 1)) > 1))
                sh.append(Decimal(1) if alone else self.need(a, gmem, HUNDRED))
            return list(zip((a["workload"] for a in asg), self.scaled(sh)))
        profs = {p["name"]: p for p in gm.get("mig_profiles") or []}
        slots = max((p["memory_slices"] for p in profs.values()), default=1)
        cslices = max((p["compute_slices"] for p in profs.values()), default=1)
        inst = []
        for m in g.get("mig") or []:
            p = profs[m["profile"]]
            inst.append(max(Decimal(p["memory_slices"]) / slots,
                            Decimal(p["compute_slices"]) / cslices))
        for m, whole in zip(g.get("mig") or [], self.scaled(inst)):
            asg = m.get("assignments") or []
            p = profs[m["profile"]]
            if len(asg) == 1:
                out.append((asg[0]["workload"], whole))
                continue
            comp = self.dec(p["sm_count"]) / self.dec(gm["sm_count"]) * HUNDRED
            sh = self.scaled([self.need(a, self.dec(p["memory_gib"]), comp) for a in asg])
            out += [(a["workload"], whole * x) for a, x in zip(asg, sh)]
        return out

    def check_showback(self):
        d = self.dec
        held, idle, slack = {}, {}, {}
        for node in self.plan["nodes"]:
            price = d(node["price_per_hour"])
            ngpus = len(node["gpus"])
            claims = []
            for g in node["gpus"]:
                gm = self.gpu_model(g["model"])
                if gm is None:
                    return
                claims += self.gpu_claims(g, gm)
            h = sum((x for _, x in claims), Decimal(0))
            if h == 0 or ngpus == 0:
                continue
            free = Decimal(ngpus) - h
            for name, x in claims:
                held[name] = held.get(name, Decimal(0)) + price * x / ngpus
                team = self.wl.get(name, {}).get("team")
                idle[team] = idle.get(team, Decimal(0)) + price * free / ngpus * x / h
                # The JSON rounds a share's compute to 0.01 percentage points
                # and its memory to 0.01 GiB: 1e-4 of a GPU covers both.
                eps = Decimal("0.0001")
                slack[name] = slack.get(name, Decimal(0)) + price / ngpus * eps
                # A team's idle is free x (x / h): the rounding of every share
                # on the node moves free and h, relatively more for small x.
                rel = min(Decimal(1), eps / x + eps * len(claims) / h) if x > 0 else Decimal(1)
                slack[team] = slack.get(team, Decimal(0)) + price / ngpus * (
                    free * x / h * rel + eps * len(claims) * x / h)
        # One share per GPU a replica holds, each rounded to a micro-dollar.
        reps = {w["name"]: w["replicas"] * int(w.get("gpus_per_replica", 1))
                for w in self.plan["workloads"]}
        for w in self.plan["workloads"]:
            want = held.get(w["name"], Decimal(0))
            got = d(w["cost_per_hour"])
            # Shares of rounded memory (2 decimals of GiB) and compute, and
            # one micro-dollar per replica of rounding.
            if abs(got - want) > (want * Decimal("0.002") + slack.get(w["name"], Decimal(0)) +
                                  Decimal("0.000002") * reps[w["name"]]):
                self.v(13, "%s costs %s, the capacity its replicas hold is worth %s"
                       % (w["name"], got, want.quantize(Decimal("0.000001"))))
        for t in self.plan.get("teams") or []:
            want = idle.get(t["team"], Decimal(0))
            got = d(t["idle_per_hour"])
            # Idle is what is left of the nodes once the held shares are
            # taken: it carries their rounding, relative to the team's cost.
            rel = (d(t["cost_per_hour"]) + want) * Decimal("0.002")
            if abs(got - want) > rel + slack.get(t["team"], Decimal(0)) + \
                    Decimal("0.00001") * len(reps):
                self.v(13, "team %r idle %s, what nobody holds on its nodes comes to %s"
                       % (t["team"], got, want.quantize(Decimal("0.000001"))))

    def check_totals(self):
        p = self.plan
        ngpus = sum(len(n["gpus"]) for n in p["nodes"])
        cat = 0
        for n in p["nodes"]:
            inst = self.instances.get(n["instance"])
            cat += inst["gpu_count"] if inst else len(n["gpus"])
        if p["gpus"]["after"] != cat:
            self.v(3, "gpus.after %s, the nodes' instances have %d GPUs" % (p["gpus"]["after"], cat))
        if p["instances"]["after"] != len(p["nodes"]):
            self.v(3, "instances.after %s, the plan has %d nodes"
                   % (p["instances"]["after"], len(p["nodes"])))
        for k in ("before_percent", "after_percent"):
            u = self.dec(p["utilization"][k])
            if u < 0 or u > 100:
                self.v(12, "utilization.%s is %s" % (k, u))
        self.summary = (sum(w["replicas"] for w in self.wl.values()), ngpus, len(p["nodes"]))


def check(plan_path, gpus, instances, target, work_path=None):
    """Checks one plan file; returns (exit status, output lines)."""
    try:
        with open(plan_path, encoding="utf-8") as f:
            plan = json.load(f, parse_float=Decimal)
        workfile = read_workload_file(work_path) if work_path else None
    except (OSError, ValueError) as e:
        return 2, ["feasible.py: %s: %s" % (work_path or plan_path, e)]
    except Exception as e:  # PyYAML's errors are not ValueErrors
        return 2, ["feasible.py: %s: %s" % (work_path, e)]
    try:
        c = Checker(plan, gpus, instances, target, workfile)
    except InvalidOperation:
        return 2, ["feasible.py: invalid --target %r" % (target,)]
    try:
        out = c.run()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError,
            InvalidOperation) as e:
        out = c.out + [(0, "malformed plan: %s: %s" % (type(e).__name__, e))]
    lines = ["violation: RULE %d: %s" % (rule, detail) for rule, detail in out]
    if out:
        return 1, lines
    r, g, n = c.summary
    fr = " (%d fraction GPUs)" % c.fraction_gpus if c.fraction_gpus else ""
    return 0, ["ok: %d replicas on %d GPUs in %d nodes%s" % (r, g, n, fr)]


def batch(listfile, gpus, instances):
    """--batch LIST: LIST has lines `TARGET PLAN.json`; writes each plan's
    output to PLAN.json.check (one Python start for many plans)."""
    worst = 0
    with open(listfile, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            target, rest = line.split(None, 1)
            path, _, work = rest.partition("\t")
            rc, lines = check(path, gpus, instances, target, work or None)
            worst = max(worst, rc)
            with open(path + ".check", "w", encoding="utf-8") as o:
                o.write("\n".join(lines) + "\n")
    return worst


def main(argv):
    args = []
    target = "90"
    work = None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--target" and i + 1 < len(argv):
            target = argv[i + 1].rstrip("%")
            i += 2
            continue
        if a == "--workloads" and i + 1 < len(argv):
            work = argv[i + 1]
            i += 2
            continue
        if a.startswith("--target="):
            target = a.split("=", 1)[1].rstrip("%")
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            args.append(a)
        i += 1
    if len(args) == 4 and args[0] == "--batch":
        pass
    elif len(args) != 3:
        sys.stderr.write("usage: feasible.py PLAN.json GPUS.json INSTANCES.json [--target 90] "
                         "[--workloads FILE.yaml]\n")
        return 2
    try:
        Decimal(target)
    except InvalidOperation:
        sys.stderr.write("feasible.py: invalid --target %r\n" % target)
        return 2
    try:
        docs = []
        for path in args[-2:]:
            with open(path, encoding="utf-8") as f:
                docs.append(json.load(f, parse_float=Decimal))
    except (OSError, ValueError, InvalidOperation) as e:
        sys.stderr.write("feasible.py: %s\n" % e)
        return 2
    if args[0] == "--batch":
        try:
            return batch(args[1], docs[0], docs[1])
        except (OSError, ValueError) as e:
            sys.stderr.write("feasible.py: %s\n" % e)
            return 2
    rc, lines = check(args[0], docs[0], docs[1], target, work)
    if rc == 2:
        sys.stderr.write(lines[0] + "\n")
        return 2
    print("\n".join(lines))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
