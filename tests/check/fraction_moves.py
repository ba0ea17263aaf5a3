"""fraction_moves.py - the adversary's moves for fraction GPUs (adversary.py).

Three backends hand a pod a fraction of a GPU; each leaves the scheduler a
freedom the plan must survive, and the adversary takes it:

HAMi  A node runs HAMi's device plugin when labels.sh labels it as
      hami-values.yaml's devicePlugin.nvidiaNodeSelector says (default
      gpu=on) and turns the GPU Operator's device plugin off there. A pod is
      HAMi's when it asks nvidia.com/gpumem; hami-scheduler puts it on ANY
      GPU of ANY such node its selectors admit where the GPU has fewer than
      deviceSplitCount pods, memory left (its reported MiB x
      deviceMemoryScaling, the node's own where labels.sh writes HAMi's
      per-node config; pkg/device/nvidia/fit_checks.go) and SM % left
      (100 x deviceCoreScaling). Every set of pods within those three sums
      is a landing. Rules, for the worst landing on each GPU:
        memory     the caps sum to at most the GPU's usable memory (what the
                   driver reports less its reserve: HAMi-core caps what each
                   container allocates, so the sum is what the GPU must hold)
        compute    HAMi limits each pod to its gpucores and the SM % of a GPU
                   sum to at most 100, so a pod keeps its planned share if it
                   needs at most its gpucores: checked per pod. The planned
                   compute may then sum above targetUtilization (up to the
                   SM % sum): targetUtilization is the plan's headroom, not a
                   limit HAMi knows.
        tenant, isolation  as for a shared unit: two tenants, or a
                   fault-isolated workload beside another pod, in one landing
      A pod without hami-scheduler that may land on a HAMi node (it asks
      nvidia.com/gpu there) is a violation, and so is a HAMi pod no HAMi
      node admits (placement).
DRA   A pod whose claim comes from a ResourceClaimTemplate asking
      capacity.requests.memory gets a claim of its own, which the scheduler
      may put on ANY GPU of ANY node its selectors admit with that much of
      the device's memory capacity left (the driver publishes what the GPU
      reports, in whole MiB). Every set of such pods within a GPU's capacity
      is a landing; claims without capacity take a whole GPU, so they meet
      none. Rules for the worst landing: memory (requests <= usable), and
      compute: nothing limits it, the pods time-slice, so the planned
      compute of the landing must stay within targetUtilization; tenant,
      isolation.
MPS   A ResourceClaim by name whose config is MPS is one GPU: all pods that
      take it run there, as clients of one MPS daemon. A client's limits are
      the smaller of its environment's (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE,
      CUDA_MPS_PINNED_DEVICE_MEM_LIMIT) and the claim's defaults (a client
      may only lower them). Rules over all the claim's pods (a rollout's
      surge pods too): memory limits sum <= usable; each workload's
      gpuMemory <= its limit and its compute <= its thread %; thread % sum
      <= 100; planned compute sum <= targetUtilization; at most 48 clients;
      tenant, isolation.
Whole GPUs under DRA, as a DRA stack (which DRA and MPS fractions make
the cluster's) claims them: a ResourceClaim by name without MPS is one GPU
its pods time-slice (memory within usable less the largest headroom,
compute within targetUtilization, one tenant, no fault-isolated workload);
a template of whole GPUs gives each pod its own on any node it admits (each
workload fits one alone). MIG claims are not modelled.
"""

import re

MIB = 1 << 20
MEM, CORES = "nvidia.com/gpumem", "nvidia.com/gpucores"
MPS_CLIENTS = 48


def hami_node_scaling(labels_sh):
    """{n: deviceMemoryScaling} of labels.sh's `hami_node "$NODE_n" S`
    lines: HAMi's per-node config, which overrides the values' global one."""
    with open(labels_sh, encoding="utf-8") as fh:
        return {int(n): float(s) for n, s in re.findall(
            r'^hami_node "\$NODE_(\d+)" ([0-9.]+)$', fh.read(), re.M)}


def is_hami_values(doc):
    dp = doc.get("devicePlugin")
    return isinstance(dp, dict) and ("deviceSplitCount" in dp or "nvidiaNodeSelector" in dp or
                                     "deviceMemoryScaling" in dp)


def quantity_mib(v):
    m = re.fullmatch(r"\s*([0-9]+)(Mi|Gi|M|G)?\s*", str(v))
    if not m:
        return None
    n = int(m.group(1))
    return {"Mi": n, "M": n, "Gi": n * 1024, "G": n * 1024, None: n // MIB}[m.group(2)]


class Claims:
    """What resourceclaims.yaml says each claim and template is."""

    def __init__(self):
        self.capacity = {}  # (ns, template) -> memory MiB
        self.mps = {}       # (ns, claim) -> (thread %, memory MiB)
        self.shared = set()  # (ns, claim): a whole GPU its pods time-slice
        self.whole = set()   # (ns, template): a whole GPU of each pod's own

    def read(self, doc):
        kind = doc.get("kind")
        if kind not in ("ResourceClaim", "ResourceClaimTemplate"):
            return
        meta = doc.get("metadata") or {}
        key = (meta.get("namespace") or "default", meta.get("name"))
        spec = doc.get("spec") or {}
        if kind == "ResourceClaimTemplate":
            spec = spec.get("spec") or {}
        devs = spec.get("devices") or {}
        gpu = False
        for r in devs.get("requests") or []:
            inner = r.get("exactly") or r
            mem = ((inner.get("capacity") or {}).get("requests") or {}).get("memory")
            if mem is not None and kind == "ResourceClaimTemplate":
                self.capacity[key] = quantity_mib(mem)
            # Whole GPUs of one request (MIG slices are not modelled).
            gpu = inner.get("deviceClassName") == "gpu.nvidia.com" and len(
                devs.get("requests") or []) == 1
        if gpu and key not in self.capacity:
            (self.whole if kind == "ResourceClaimTemplate" else self.shared).add(key)
        for c in devs.get("config") or []:
            sh = (((c.get("opaque") or {}).get("parameters") or {}).get("sharing") or {})
            if sh.get("strategy") == "MPS" and kind == "ResourceClaim":
                mc = sh.get("mpsConfig") or {}
                self.mps[key] = (mc.get("defaultActiveThreadPercentage"),
                                 quantity_mib(mc.get("defaultPinnedDeviceMemoryLimit", "")))
                self.shared.discard(key)


def obj_fraction(o, ns):
    """Sets o.hami (gpumem, gpucores), o.capacity (template MiB) or o.mps
    (claim name, env thread %, env MiB): what the adversary models."""
    o.hami = None
    if MEM in o.requests or CORES in o.requests:
        o.hami = (o.requests.pop(MEM, None), o.requests.pop(CORES, None))
    o.namespace = ns or "default"
    o.scheduler = o.ps.get("schedulerName")
    o.claim_refs = []
    for c in o.claims:
        if c.get("resourceClaimTemplateName"):
            o.claim_refs.append(("template", c["resourceClaimTemplateName"]))
        elif c.get("resourceClaimName"):
            o.claim_refs.append(("claim", c["resourceClaimName"]))
    o.env = {}
    for c in o.ps.get("containers") or []:
        for e in c.get("env") or []:
            if isinstance(e, dict):
                o.env[e.get("name")] = e.get("value")


def env_limits(o):
    t = o.env.get("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE")
    m = o.env.get("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT")
    tp = int(t) if t is not None and str(t).isdigit() else None
    mib = None
    for part in str(m or "").split(","):
        mm = re.fullmatch(r"\s*0=([0-9]+)([MG])\s*", part)
        if mm:
            mib = int(mm.group(1)) * (1024 if mm.group(2) == "G" else 1)
    return tp, mib


class Hami:
    def __init__(self, values):
        dp = (values or {}).get("devicePlugin") or {}
        self.on = values is not None
        self.split = int(dp.get("deviceSplitCount", 10))
        self.scaling = float(dp.get("deviceMemoryScaling", 1))
        self.cores = 100 * float(dp.get("deviceCoreScaling", 1))
        self.selector = dp.get("nvidiaNodeSelector", {"gpu": "on"}) or {}

    def runs_on(self, labels):
        return self.on and all(labels.get(k) == str(v) for k, v in self.selector.items()) \
            and labels.get("nvidia.com/gpu.deploy.device-plugin") == "false"


def worst(items, fits, score):
    """items: [(key, count, size tuple)]; the most `score` of a multiset
    within fits(sum tuple, n), as (score, {key: count})."""
    best = [None, {}]
    dims = len(items[0][2]) if items else 0

    def go(i, tot, n, pick):
        if i == len(items):
            s = score(pick)
            if best[0] is None or s > best[0]:
                best[0], best[1] = s, dict(pick)
            return
        key, cap, size = items[i]
        for c in range(0, cap + 1):
            t = tuple(tot[d] + c * size[d] for d in range(dims))
            if c and not fits(t, n + c):
                break
            if c:
                pick[key] = c
            go(i + 1, t, n + c, pick)
        pick.pop(key, None)

    go(0, tuple([0] * dims), 0, {})
    return best[0] or 0, best[1]


class Fractions:
    """Plays the three backends on top of an Adversary (adv)."""

    def __init__(self, adv, em):
        self.a, self.em = adv, em
        self.hami = Hami(getattr(em, "hami_values", None))
        self.node_scaling = getattr(em, "hami_node_scaling", {})
        self.claims = getattr(em, "claims", Claims())

    def modelled(self, o):
        if o.hami is not None:
            return True
        for kind, name in o.claim_refs:
            key = (o.namespace, name)
            if kind == "template" and key in self.claims.capacity:
                return True
            if kind == "claim" and (key in self.claims.mps or key in self.claims.shared):
                return True
            if kind == "template" and key in self.claims.whole:
                return True
        return False

    def capacity_of(self, o):
        for kind, name in o.claim_refs:
            if kind == "template" and (o.namespace, name) in self.claims.capacity:
                return self.claims.capacity[(o.namespace, name)]
        return None

    def run(self, elig, placed):
        a = self.a
        for node in a.nodes:
            hami_node = self.hami.runs_on(node.labels)
            here = {}
            for o in a.objs:
                if o.wl is None or not o.admits(node):
                    continue
                if o.hami is not None and hami_node:
                    here.setdefault("hami", []).append(o)
                elif o.hami is None and hami_node and o.requests.get("nvidia.com/gpu"):
                    a.v(node.where(), "hami", "%s's pods ask nvidia.com/gpu without "
                        "hami-scheduler and may land on this HAMi node" % o.wl.name)
                if self.capacity_of(o) is not None:
                    here.setdefault("dra", []).append(o)
            for kind, objs in here.items():
                for o in objs:
                    placed[o.wl.name] = True
                for gi in range(node.count):
                    self.landing(node, gi, kind, objs, elig)
        self.mps_claims(placed)
        self.whole_gpus(placed)

    def whole_gpus(self, placed):
        """Time-sliced claims (all pods of one on its one GPU) and whole-GPU
        templates (each pod a GPU of its own, on any node it admits)."""
        a = self.a
        users = {}
        for o in a.objs:
            for kind, name in o.claim_refs:
                key = (o.namespace, name)
                if o.wl and ((kind == "claim" and key in self.claims.shared) or
                             (kind == "template" and key in self.claims.whole)):
                    users.setdefault((kind, key), []).append(o)
        for (kind, key), objs in sorted(users.items()):
            nodes = [n for n in a.nodes if any(o.admits(n) for o in objs)]
            where = "claim %s/%s" % key if kind == "claim" else "template %s/%s" % key
            if not nodes:
                a.v(where, "placement", "no node matches its pods' selectors")
                continue
            for o in objs:
                placed[o.wl.name] = True
            if kind == "template":
                for n in nodes:
                    for o in objs:
                        if o.admits(n):
                            self.alone(where + " on " + n.where(), n.model, o.wl)
                continue
            g = min((n.model for n in nodes), key=lambda m: m["memory_mib"] - m["reserve_mib"])
            self.time_sliced(where, g, objs)

    def alone(self, where, g, w):
        usable = (g["memory_mib"] - g["reserve_mib"]) * MIB
        if w.mem > usable + w.mem_tol:
            self.a.v(where, "memory", "%s alone needs %d MiB, %d MiB usable"
                     % (w.name, -(-w.mem // MIB), usable // MIB))

    def time_sliced(self, where, g, objs):
        a = self.a
        pods = sum(o.pods for o in objs)
        wls = {o.wl.name: o.wl for o in objs}
        if pods < 2:
            for w in wls.values():
                self.alone(where, g, w)
            return
        h = max(w.headroom_ppm for w in wls.values())
        offer = (g["memory_mib"] - g["reserve_mib"]) * MIB * (1000000 - h) // 1000000
        mem = sum(o.pods * o.wl.mem for o in objs)
        tol = sum(o.pods * o.wl.mem_tol for o in objs)
        if mem > offer + tol:
            a.v(where, "memory", "its %d pods need %d MiB together > %d MiB (usable less "
                "%s headroom)" % (pods, -(-mem // MIB), offer // MIB, pct(h)))
        comp = sum(o.pods * o.wl.compute_on(g, a.cat) for o in objs)
        if comp > a.target:
            a.v(where, "compute", "its %d pods need %s together > targetUtilization %s"
                % (pods, pct(comp), pct(a.target)))
        tenants = sorted({w.tenant for w in wls.values()})
        if len(tenants) > 1:
            a.v(where, "tenant", "tenants %s share it" % ", ".join(tenants))
        for w in wls.values():
            if w.isolation == "fault":
                a.v(where, "isolation", "%s (isolation: fault) shares it" % w.name)

    def groups(self, objs, node, elig, size):
        """(workload, pods that may be here, size) per workload and size."""
        by = {}
        for o in objs:
            s = size(o)
            if s is None:
                continue
            k = (o.wl.name, s)
            by.setdefault(k, []).append(o)
        out = []
        for (w, s), os_ in sorted(by.items(), key=lambda x: str(x[0])):
            out.append((w, s, self.a.cap_on(os_, node, elig)))
        return out

    def landing(self, node, gi, kind, objs, elig):
        a, g = self.a, node.model
        where = "%s gpu %d %s" % (node.where(), gi, kind)
        usable = (g["memory_mib"] - g["reserve_mib"])
        if kind == "hami":
            budget = int(g["memory_mib"] * self.node_scaling.get(node.n, self.hami.scaling))
            grp = self.groups(objs, node, elig,
                              lambda o: (int(o.hami[0] or 0), int(o.hami[1] or 0)))
            items = [((w, s), min(c, self.hami.split), s) for w, s, c in grp]

            def fits(t, n):
                return t[0] <= budget and t[1] <= self.hami.cores and n <= self.hami.split
            for w, (mem, cores), _ in grp:
                comp = a.wls[w].compute_on(g, a.cat)
                if cores and comp > cores * 10000:
                    a.v(where, "compute", "%s needs %s, HAMi limits it to gpucores %d%%"
                        % (w, pct(comp), cores))
        else:
            budget = g["memory_mib"]
            grp = self.groups(objs, node, elig, lambda o: (self.capacity_of(o),))
            items = [((w, s), c, s) for w, s, c in grp]

            def fits(t, n):
                return t[0] <= budget
        # What a pod holds: HAMi enforces its cap; a capacity claim only
        # counts, so the pod holds its workload's gpuMemory.
        need = {k: (k[1][0] if kind == "hami" else -(-a.wls[k[0]].mem // MIB))
                for k, _, _ in items}
        for k, _, _ in items:
            if need[k] > usable:
                a.v(where, "memory", "%s alone holds %d MiB, %d MiB usable"
                    % (k[0], need[k], usable))
        items = [x for x in items if x[1] > 0 and fits(x[2], 1)]
        if not items:
            return
        for (w, s), c, size in items:
            sp = a.wls[w].spread
            if sp == "node" and c >= 2 and gi == 0:
                a.v(node.where(), "spread", "%s (spread: node) may have %d pods here" % (w, c))
            if sp == "gpu" and c >= 2 and fits(tuple(2 * x for x in size), 2):
                a.v(where, "spread", "%s (spread: gpu) may have 2 pods on this GPU" % w)
        mem, pick = worst(items, fits, lambda p: sum(c * need[k] for k, c in p.items()))
        if mem > usable:
            a.v(where, "memory", "%s: %d MiB together > %d MiB usable"
                % (show(pick), mem, usable))
        if kind == "dra":
            comp = {k: a.wls[k[0]].compute_on(g, a.cat) for k, _, _ in items}
            tot, pick = worst(items, fits, lambda p: sum(c * comp[k] for k, c in p.items()))
            if tot > a.target:
                a.v(where, "compute", "%s: %s together > targetUtilization %s (DRA limits "
                    "no compute)" % (show(pick), pct(tot), pct(a.target)))
        self.shared_rules(where, items, fits)

    def shared_rules(self, where, items, fits):
        """Tenants and isolation: any two pods that one landing holds."""
        a = self.a
        for i, (ki, ci, si) in enumerate(items):
            for kj, cj, sj in items[i:]:
                same = ki == kj
                if same and ci < 2:
                    continue
                if not fits(tuple(x + y for x, y in zip(si, sj)), 2):
                    continue
                wi, wj = a.wls[ki[0]], a.wls[kj[0]]
                if wi.tenant != wj.tenant:
                    a.v(where, "tenant", "%s + %s of tenants %s, %s may share it"
                        % (wi.name, wj.name, wi.tenant, wj.tenant))
                for w, other in ((wi, wj), (wj, wi)):
                    if w.isolation == "fault":
                        a.v(where, "isolation", "%s (isolation: fault) may share it with %s"
                            % (w.name, other.name))

    def mps_claims(self, placed):
        a = self.a
        users = {}
        for o in a.objs:
            for kind, name in o.claim_refs:
                if kind == "claim" and (o.namespace, name) in self.claims.mps and o.wl:
                    users.setdefault((o.namespace, name), []).append(o)
        for key, objs in sorted(users.items()):
            dt, dm = self.claims.mps[key]
            nodes = [n for n in a.nodes if any(o.admits(n) for o in objs)]
            where = "claim %s/%s mps" % key
            if not nodes:
                a.v(where, "placement", "no node matches its pods' selectors")
                continue
            g = min((n.model for n in nodes), key=lambda m: m["memory_mib"] - m["reserve_mib"])
            usable = g["memory_mib"] - g["reserve_mib"]
            mem = threads = comp = count = 0
            for o in objs:
                placed[o.wl.name] = True
                tp, mib = env_limits(o)
                tp = min(x for x in (tp, dt) if x is not None) if (tp, dt) != (None, None) \
                    else 100
                mib = min(x for x in (mib, dm) if x is not None) if (mib, dm) != (None, None) \
                    else g["memory_mib"]
                c = o.wl.compute_on(g, a.cat)
                if o.wl.mem > mib * MIB + o.wl.mem_tol:
                    a.v(where, "mps", "%s needs %d MiB, its limit is %d MiB"
                        % (o.wl.name, -(-o.wl.mem // MIB), mib))
                if c > tp * 10000:
                    a.v(where, "mps", "%s needs %s, its limit is %d%% threads"
                        % (o.wl.name, pct(c), tp))
                mem += o.pods * mib
                threads += o.pods * tp
                comp += o.pods * c
                count += o.pods
            if mem > usable:
                a.v(where, "memory", "its %d clients' limits sum to %d MiB > %d MiB usable"
                    % (count, mem, usable))
            if threads > 100:
                a.v(where, "mps", "its clients' thread %% sum to %d > 100" % threads)
            if comp > a.target:
                a.v(where, "compute", "its clients need %s together > targetUtilization %s"
                    % (pct(comp), pct(a.target)))
            if count > MPS_CLIENTS:
                a.v(where, "mps", "%d clients > %d" % (count, MPS_CLIENTS))
            wls = {o.wl.name: o.wl for o in objs}
            tenants = sorted({w.tenant for w in wls.values()})
            if len(tenants) > 1:
                a.v(where, "tenant", "tenants %s share it" % ", ".join(tenants))
            for w in wls.values():
                if w.isolation == "fault" and count > 1:
                    a.v(where, "isolation", "%s (isolation: fault) shares it" % w.name)


def show(pick):
    return " + ".join("%s x%d" % (k[0], c) if c > 1 else k[0] for k, c in sorted(pick.items()))


def pct(ppm):
    s = "%.2f" % (ppm / 10000)
    return (s.rstrip("0").rstrip(".") if "." in s else s) + "%"
