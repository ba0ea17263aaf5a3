#!/usr/bin/env python3
"""adversary.py - play the scheduler and the device plugin against `gpushare plan --emit`.

usage: adversary.py [--profiles DIR[:DIR...]] [--no-surge] DIR FILE PLAN.json

DIR is what `gpushare plan FILE --emit DIR` wrote, FILE the workload file and
PLAN.json `gpushare plan FILE --format json`.  The plan JSON is read only for
facts the emitted files state too: each workload's size (memory, compute as
measured, headroom, tenant, isolation, spread) and each planned node's instance
type (labels.sh names the instance type of every NODE_n).  Its placements are
never read: a plan that packs well but emits loose selectors fails here.
GPU models and instances come from the profiles (--profiles, else
$GPUSHARE_PROFILES, else this tree's profiles/).

The cluster the adversary plays on: node n is NODE_n of labels.sh, with the
labels labels.sh gives it plus what a real node carries (instance type, GPU
product, arch, hostname).  Its device-plugin config (label
nvidia.com/device-plugin.config, else devicePlugin.config.default of
gpu-operator-values.yaml) says what it advertises: every GPU, or with
migStrategy mixed/single every MIG slice of its geometry (label
nvidia.com/mig.config into mig-config.yaml), as a resource with R replicas
(sharing.timeSlicing or sharing.mps; 1 without sharing).

The pods: every object of the emitted patches (DIR/kustomization.yaml and the
files it lists, or DIR/workloads.yaml), with its replica count (a Deployment
also its rolling-update surge, default maxSurge 25 %, unless --no-surge),
nodeSelector, required node affinity, requested resources, required pod
anti-affinity and topology spread on kubernetes.io/hostname.  An object
belongs to the workload its label/annotation gpushare.io/workload names, else
the workload whose object name (workload key object.name, default its name)
it has, else NAME of a copy NAME-<digits>.

The adversary: a pod may land on any node whose labels its selectors match
and that advertises what it requests; the device plugin may give it any unit
(GPU or MIG slice) advertising that resource there.  A unit with R replicas
thus holds any R of the pods admitted there: of one workload at most as many
as it has pods that may land on the node (1 with anti-affinity on the
hostname, the topology-spread bound with maxSkew).  For every unit it takes
the worst such R and checks the plan's rules (gpushare-workloads(5), the
planner's lib/catalog/offer.c):
  memory     alone: gpuMemory <= the unit's memory (a GPU: what the driver
             reports less its reserve; a MIG slice: the profile's); two or
             more time-sliced: sum <= that x (1 - H), H the largest
             memoryHeadroom among them (exact bytes, as gs_memory_offer);
             MPS: each client <= floor(reported MiB / R) and the sum <=
             usable
  compute    alone: <= 100 % (a MIG slice: its SM share); shared: the sum of
             the R largest (converted to the unit's model as the planner
             does: by memory bandwidth or FP16 TFLOPS from measuredOn) <=
             targetUtilization (a MIG slice: of its SM share); MPS: each
             client <= 100 // R %
  tenant     two tenants never share a unit with R >= 2
  isolation  a fault-isolated workload never on a unit with R >= 2 that
             two pods may share
  spread     node: two pods of the workload may never land on one node;
             gpu: never on one GPU (MIG slices of one GPU are one GPU)
  placement  every workload has a node its pods may land on; every object
             belongs to a workload
  gpus       a pod lands only on a node that advertises as many units of
             each resource as it requests (a replica of gpusPerReplica N
             holds N GPUs of one node); its objects request exactly N (a
             patch never changes a workload's GPU count); and more than one
             unit of a shared resource (R >= 2) is a violation: the device
             plugin may hand it N replicas of one GPU
  dra        claims of whole GPUs, time-sliced and MPS claims by name, and
             capacity claims are played by fraction_moves.py; pods that take
             MIG claims are not modelled: each such object is reported, never
             passed silently
One line per violation: `node N (TYPE) UNIT: RULE: pods: figures`.  Exit 1
if any, else `adversary: N nodes, M workloads, 0 violations` and exit 0.
Exit 2: unreadable or malformed input.

Python 3 with PyYAML.  A test tool, never shipped.
"""

import glob
import json
import os
import re
import shlex
import sys
from decimal import Decimal, ROUND_CEILING

import yaml

import fraction_moves as frac

PPM = 1000000
MIB = 1 << 20
HOST = "kubernetes.io/hostname"
DP_LABEL = "nvidia.com/device-plugin.config"
MIG_LABEL = "nvidia.com/mig.config"
WL_KEY = "gpushare.io/workload"
KINDS = ("Deployment", "StatefulSet", "Job", "CronJob", "Pod")


class Bad(Exception):
    """Input the checker cannot read: exit 2."""


def dec(x):
    return Decimal(str(x))


def gib(b):
    return "%.2f GiB" % (Decimal(b) / (1 << 30))


def pct(ppm):
    s = "%.2f" % (Decimal(ppm) / 10000)
    return (s.rstrip("0").rstrip(".") if "." in s else s) + "%"


# -- the catalog -------------------------------------------------------------

def mib(text, where):
    m = re.fullmatch(r"\s*(\d+)\s*MiB\s*", str(text))
    if not m:
        raise Bad("%s: memory %r is not <integer>MiB" % (where, text))
    return int(m.group(1))


class Catalog:
    def __init__(self, dirs):
        self.gpus = {}       # lower name or alias -> model dict
        self.instances = {}  # type -> (model dict, gpu count, arch)
        for d in dirs:
            for f in sorted(glob.glob(os.path.join(d, "gpus", "*.yaml"))):
                self.add_gpu(f)
        for d in dirs:
            for f in sorted(glob.glob(os.path.join(d, "instances", "*.yaml"))):
                self.add_instances(f)
        if not self.gpus:
            raise Bad("no GPU profiles under %s" % ":".join(dirs))

    def add_gpu(self, f):
        with open(f, encoding="utf-8") as fh:
            y = yaml.safe_load(fh)
        g = {"name": y["name"], "memory_mib": mib(y["memory"], f),
             "reserve_mib": mib(y.get("memory_reserve", "0MiB"), f),
             "bw": y.get("memory_bandwidth_gbs"),
             "fp16": int(dec(y["fp16_tflops"]) * 1000), "sm": int(y["sm_count"]),
             "aliases": list(y.get("aliases") or []), "mig": {}}
        for p in ((y.get("mig") or {}).get("profiles") or []):
            g["mig"][p["name"]] = {"memory_mib": mib(p["memory"], f), "sm": int(p["sm_count"])}
        for n in [g["name"]] + g["aliases"]:
            self.gpus[str(n).lower()] = g

    def add_instances(self, f):
        with open(f, encoding="utf-8") as fh:
            y = yaml.safe_load(fh)
        for i in y.get("instances") or []:
            g = self.gpu(i["gpu"])
            if g is not None:
                self.instances[i["type"]] = (g, int(i["gpu_count"]), i.get("arch", "amd64"))

    def gpu(self, name):
        return self.gpus.get(str(name).lower()) if name is not None else None


def usable_bytes(g):
    return (g["memory_mib"] - g["reserve_mib"]) * MIB


# -- the workloads -----------------------------------------------------------

UNITS = {"GiB": 1 << 30, "Gi": 1 << 30, "MiB": MIB, "Mi": MIB, "GB": 10 ** 9, "MB": 10 ** 6}


def parse_bytes(text):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(GiB|Gi|MiB|Mi|GB|MB)", str(text).strip())
    if not m:
        return None
    return int((Decimal(m.group(1)) * UNITS[m.group(2)]).to_integral_value(ROUND_CEILING))


class Workload:
    def __init__(self, rec, spec):
        self.name = rec["name"]
        self.replicas = int(rec["replicas"])
        self.tenant = rec.get("tenant", "default")
        self.isolation = rec.get("isolation", "none")
        self.spread = rec.get("spread", "none")
        self.measured_on = rec.get("measured_on")
        self.bound = rec.get("bound", "compute")
        self.compute_ppm = int((dec(rec["compute_percent"]) * 10000).to_integral_value())
        self.headroom_ppm = int(dec(rec.get("memory_headroom_percent") or 0) * 10000)
        # Exact bytes from the file where its gpuMemory reads and agrees
        # with the plan's rounded figure; else the plan's, with a tolerance.
        jm = dec(rec["memory_gib"])
        b = parse_bytes((spec or {}).get("gpuMemory", ""))
        self.mem_tol = 0
        if b is None or abs(Decimal(b) / (1 << 30) - jm) > Decimal("0.005"):
            b = int(jm * (1 << 30))
            self.mem_tol = int(Decimal("0.005") * (1 << 30))
        self.mem = b
        obj = (spec or {}).get("object") or {}
        self.object_name = obj.get("name", self.name) if isinstance(obj, dict) else self.name
        self.span = int(rec.get("gpus_per_replica", 1))

    def compute_on(self, g, cat):
        """gs_workload_compute_on: the measured share converted to model g."""
        m = cat.gpu(self.measured_on)
        if m is None or m is g:
            return self.compute_ppm
        if self.bound == "memory-bandwidth" and m["bw"] and g["bw"]:
            f, t = m["bw"], g["bw"]
        else:
            f, t = m["fp16"], g["fp16"]
        return -(-self.compute_ppm * f // t)


def load_workloads(path, plan):
    with open(path, encoding="utf-8") as fh:
        y = yaml.safe_load(fh) or {}
    specs = {}
    for w in y.get("workloads") or []:
        if isinstance(w, dict) and "name" in w:
            specs[str(w["name"])] = w
    t = str(y.get("targetUtilization", "90")).strip().rstrip("%")
    target_ppm = int(dec(t) * 10000)
    wls = {}
    for rec in plan.get("workloads") or []:
        wls[rec["name"]] = Workload(rec, specs.get(rec["name"]))
    return wls, target_ppm


# -- the emitted files -------------------------------------------------------

def load_docs(path):
    with open(path, encoding="utf-8") as fh:
        return [d for d in yaml.safe_load_all(fh) if d is not None]


def logical_lines(text):
    buf = ""
    for line in text.splitlines():
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        yield buf + line
        buf = ""
    if buf:
        yield buf


def label_functions(text):
    """Shell functions whose body runs `kubectl label`: calls of them label too."""
    names = set()
    for m in re.finditer(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\)\s*\{(.*?)^\s*\}", text,
                         re.S | re.M):
        if re.search(r"kubectl\s+label", m.group(2)):
            names.add(m.group(1))
    return names


def parse_labels_sh(path):
    """{n: {key: value}} from the `kubectl label node NODE_n k=v ...` lines."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    funcs = label_functions(text)
    nodes = {}
    for line in logical_lines(text):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        try:
            toks = shlex.split(s, comments=True)
        except ValueError:
            continue
        for i, t in enumerate(toks):
            if t == "kubectl" and i + 1 < len(toks) and toks[i + 1] == "label":
                args = toks[i + 2:]
                break
            if t in funcs and i == 0:
                args = toks[1:]
                break
        else:
            continue
        refs = set()
        pairs = []
        for a in args:
            if a in ("|", "||", "&&", ";"):
                break
            refs.update(int(x) for x in re.findall(r"NODE_(\d+)", a))
            if a.startswith("-") or "$" in a:
                continue
            if "=" in a:
                k, v = a.split("=", 1)
                pairs.append((k, v, True))
            elif a.endswith("-") and "/" in a:
                pairs.append((a[:-1], None, False))
        for n in refs:
            lab = nodes.setdefault(n, {})
            for k, v, put in pairs:
                if put:
                    lab[k] = v
                else:
                    lab.pop(k, None)
    return nodes


class Emitted:
    def __init__(self, d):
        self.dir = d
        self.dp = {}         # config key -> parsed device-plugin config
        self.dp_default = None
        self.mig = {}        # mig config name -> list of device entries
        self.mig_default = None
        self.dp_enabled = True
        self.hami_values = None
        self.claims = frac.Claims()
        for f in sorted(glob.glob(os.path.join(d, "*.yaml"))):
            for doc in load_docs(f):
                self.read_doc(doc)
        lab = os.path.join(d, "labels.sh")
        if not os.path.exists(lab):
            raise Bad("%s: no labels.sh" % d)
        self.labels = parse_labels_sh(lab)
        self.hami_node_scaling = frac.hami_node_scaling(lab)
        self.objects = load_objects(d)

    def read_doc(self, doc):
        if not isinstance(doc, dict):
            return
        self.claims.read(doc)
        if frac.is_hami_values(doc):
            self.hami_values = doc
            return
        if doc.get("kind") == "ConfigMap":
            data = doc.get("data") or {}
            if "config.yaml" in data:
                y = yaml.safe_load(data["config.yaml"]) or {}
                if "mig-configs" in y:
                    self.mig.update(y["mig-configs"] or {})
                    return
            for k, v in data.items():
                y = yaml.safe_load(v) if isinstance(v, str) else v
                if isinstance(y, dict) and ("flags" in y or "sharing" in y or "version" in y):
                    self.dp[k] = y
        elif "devicePlugin" in doc or "migManager" in doc:
            dp = doc.get("devicePlugin") or {}
            if dp.get("enabled") is False:
                self.dp_enabled = False
            self.dp_default = (dp.get("config") or {}).get("default")
            self.mig_default = ((doc.get("migManager") or {}).get("config") or {}).get("default")
            self.mig_strategy = (doc.get("mig") or {}).get("strategy")


def pod_spec(kind, doc):
    spec = doc.get("spec") or {}
    if kind == "Pod":
        return spec
    if kind == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec") or {})
    return ((spec.get("template") or {}).get("spec") or {})


def pod_meta(kind, doc):
    spec = doc.get("spec") or {}
    if kind == "Pod":
        return doc.get("metadata") or {}
    if kind == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec") or {})
    return ((spec.get("template") or {}).get("metadata") or {})


def merge(a, b):
    """A strategic merge good enough for the fields read here."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = merge(a.get(k), v) if k in a else v
        return out
    return b


def load_objects(d):
    """[(kind, name, doc)] of the workload objects the emitted set changes."""
    k = os.path.join(d, "kustomization.yaml")
    objs = {}
    order = []

    def put(kind, name, ns, doc):
        key = (kind, ns or "", name)
        if key in objs:
            objs[key] = merge(objs[key], doc)
        else:
            objs[key] = doc
            order.append(key)

    if os.path.exists(k):
        with open(k, encoding="utf-8") as fh:
            kus = yaml.safe_load(fh) or {}
        for r in kus.get("resources") or []:
            p = os.path.join(d, r)
            if os.path.isfile(p):
                for doc in load_docs(p):
                    if isinstance(doc, dict) and doc.get("kind") in KINDS:
                        m = doc.get("metadata") or {}
                        put(doc["kind"], m.get("name"), m.get("namespace"), doc)
        entries = list(kus.get("patches") or [])
        entries += [{"path": p} for p in kus.get("patchesStrategicMerge") or []
                    if isinstance(p, str)]
        for e in entries:
            if isinstance(e, str):
                e = {"path": e}
            docs = []
            if "path" in e:
                docs = load_docs(os.path.join(d, e["path"]))
            elif "patch" in e:
                docs = [x for x in yaml.safe_load_all(e["patch"]) if x is not None]
            t = e.get("target") or {}
            for doc in docs:
                if not isinstance(doc, dict):
                    continue
                m = doc.get("metadata") or {}
                kind = t.get("kind") or doc.get("kind") or "Deployment"
                name = t.get("name") or m.get("name")
                if kind not in KINDS:
                    continue
                put(kind, name, t.get("namespace") or m.get("namespace"), doc)
        return [(kk[0], kk[2], objs[kk]) for kk in order]
    p = os.path.join(d, "workloads.yaml")
    if not os.path.exists(p):
        return []
    # workloads.yaml of 0.1.0: each document after a comment
    # `# KIND NAME...: N replicas` naming its object.
    with open(p, encoding="utf-8") as fh:
        text = fh.read()
    chunks = re.split(r"^---\s*$", text, flags=re.M)
    pending = None
    for ch in chunks:
        doc = yaml.safe_load(ch)
        if isinstance(doc, dict):
            m = doc.get("metadata") or {}
            kind = doc.get("kind") or (pending[0] if pending else "Deployment")
            name = m.get("name") or (pending[1] if pending else None)
            put(kind, name, m.get("namespace"), doc)
        heads = re.findall(r"^#\s*(%s)\s+([A-Za-z0-9.-]+)" % "|".join(KINDS), ch, re.M)
        pending = heads[-1] if heads else None
    return [(kk[0], kk[2], objs[kk]) for kk in order]


# -- the cluster ---------------------------------------------------------------

class Unit:
    """What the device plugin hands out on a node: a GPU or a MIG slice."""

    def __init__(self, node, gpu, resource, replicas, mode, profile=None):
        self.node, self.gpu, self.resource = node, gpu, resource
        self.replicas, self.mode, self.profile = replicas, mode, profile

    def name(self):
        s = "gpu %d" % self.gpu
        if self.profile:
            s += " MIG %s#%d" % (self.profile, self.slice)
        if self.replicas > 1:
            s += " %s x%d" % (self.mode, self.replicas)
        return s


class Node:
    def __init__(self, n, itype, model, count, arch, labels):
        self.n, self.itype, self.model, self.count = n, itype, model, count
        self.labels = dict(labels)
        self.labels.setdefault(HOST, "node-%d" % n)
        self.labels.setdefault("node.kubernetes.io/instance-type", itype)
        self.labels.setdefault("kubernetes.io/arch", arch)
        prod = [a for a in model["aliases"] if str(a).startswith("NVIDIA-")]
        self.labels.setdefault("nvidia.com/gpu.product", prod[0] if prod else model["name"])
        self.labels.setdefault("nvidia.com/gpu.count", str(count))
        self.units = []

    def where(self):
        return "node %d (%s)" % (self.n, self.itype)


def sharing_of(cfg):
    """(mode, {resource: (replicas, rename)}, rename_default, fail>1)."""
    sh = (cfg or {}).get("sharing") or {}
    for mode in ("timeSlicing", "mps"):
        if mode in sh and sh[mode]:
            s = sh[mode]
            res = {}
            for r in s.get("resources") or []:
                res[r["name"]] = (int(r.get("replicas", 1)), r.get("rename"), r.get("devices"))
            return ("time-slicing" if mode == "timeSlicing" else "mps", res,
                    bool(s.get("renameByDefault")))
    return (None, {}, False)


def advertised(base, mode, res, rename_default, gpu_index):
    """The resource name and replicas under which one unit is advertised."""
    if base in res:
        reps, rename, devices = res[base]
        if devices not in (None, "all") and gpu_index not in (devices or []):
            return base, 1
        if reps > 1 or mode == "mps":
            name = rename or (base + ".shared" if rename_default else base)
            return name, reps
    return base, 1


def build_nodes(em, plan, cat, errors):
    nodes = []
    pnodes = plan.get("nodes") or []
    for i, pn in enumerate(pnodes):
        n = i + 1
        inst = cat.instances.get(pn["instance"])
        if inst is None:
            raise Bad("instance %r of node %d is not in the profiles" % (pn["instance"], n))
        model, count, arch = inst
        if n not in em.labels:
            errors.append("node %d (%s): labels.sh does not label NODE_%d"
                          % (n, pn["instance"], n))
        node = Node(n, pn["instance"], model, count, arch, em.labels.get(n, {}))
        key = node.labels.get(DP_LABEL, em.dp_default)
        cfg = em.dp.get(key) if key is not None else None
        if key is not None and cfg is None and em.dp:
            errors.append("%s: device-plugin config %r is not in the ConfigMap"
                          % (node.where(), key))
        if not em.dp_enabled:
            cfg = None
        flags = (cfg or {}).get("flags") or {}
        strategy = getattr(em, "mig_strategy", None) or flags.get("migStrategy", "none")
        mode, res, rdef = sharing_of(cfg)
        geo = node.labels.get(MIG_LABEL, em.mig_default)
        mig = mig_geometry(em.mig.get(geo) if geo else None, count)
        # The GPU Operator's device plugin is off here (HAMi's runs): it
        # advertises nothing (fraction_moves.py plays HAMi).
        if node.labels.get("nvidia.com/gpu.deploy.device-plugin") == "false":
            count_units = 0
        else:
            count_units = count
        for gi in range(count_units):
            slices = mig.get(gi)
            if slices and strategy in ("mixed", "single") and model["mig"]:
                for si, prof in enumerate(slices):
                    base = "nvidia.com/gpu" if strategy == "single" else "nvidia.com/mig-" + prof
                    name, reps = advertised(base, mode, res, rdef, gi)
                    u = Unit(node, gi, name, reps, mode if reps > 1 else "alone", prof)
                    u.slice = si
                    node.units.append(u)
                continue
            if slices and model["mig"]:
                continue  # MIG mode on, but this strategy advertises no slices
            name, reps = advertised("nvidia.com/gpu", mode, res, rdef, gi)
            node.units.append(Unit(node, gi, name, reps, mode if reps > 1 or mode == "mps"
                                   else "alone"))
        nodes.append(node)
    for n in sorted(em.labels):
        if n > len(pnodes):
            errors.append("labels.sh labels NODE_%d, the plan has %d nodes" % (n, len(pnodes)))
    return nodes


def mig_geometry(entries, count):
    """{gpu index: [profile, ...]} of a mig-parted config."""
    out = {}
    for e in entries or []:
        if not e.get("mig-enabled"):
            continue
        devs = e.get("devices", "all")
        idx = range(count) if devs == "all" else [int(x) for x in devs]
        profs = []
        for p, c in (e.get("mig-devices") or {}).items():
            profs += [str(p)] * int(c)
        for i in idx:
            out[i] = list(profs)
    return out


# -- the pods ------------------------------------------------------------------

def match_expr(e, labels):
    k, op, vals = e.get("key"), e.get("operator"), [str(v) for v in e.get("values") or []]
    has = k in labels
    if op == "In":
        return has and labels[k] in vals
    if op == "NotIn":
        return not has or labels[k] not in vals
    if op == "Exists":
        return has
    if op == "DoesNotExist":
        return not has
    if op in ("Gt", "Lt") and has and vals:
        try:
            a, b = int(labels[k]), int(vals[0])
        except ValueError:
            return False
        return a > b if op == "Gt" else a < b
    return False


def term_matches(term, labels):
    for e in term.get("matchExpressions") or []:
        if not match_expr(e, labels):
            return False
    for e in term.get("matchFields") or []:
        if e.get("key") == "metadata.name" and not match_expr(
                dict(e, key=HOST), labels):
            return False
    return True


class Obj:
    def __init__(self, kind, name, doc, wl, surge):
        self.kind, self.name, self.doc, self.wl = kind, name, doc, wl
        spec = doc.get("spec") or {}
        ps = pod_spec(kind, doc)
        self.ps = ps
        if kind in ("Deployment", "StatefulSet"):
            n = spec.get("replicas")
        elif kind == "Job":
            n = spec.get("parallelism")
        elif kind == "CronJob":
            n = ((spec.get("jobTemplate") or {}).get("spec") or {}).get("parallelism")
        else:
            n = 1
        self.replicas = int(n) if n is not None else (wl.replicas if wl else 1)
        self.surge = 0
        if kind == "Deployment" and surge:
            st = spec.get("strategy") or {}
            if st.get("type", "RollingUpdate") == "RollingUpdate":
                ms = (st.get("rollingUpdate") or {}).get("maxSurge", "25%")
                self.surge = percent_of(ms, self.replicas, up=True)
        self.pods = self.replicas + self.surge
        self.requests = {}
        for c in ps.get("containers") or []:
            r = c.get("resources") or {}
            for src in (r.get("limits") or {}, r.get("requests") or {}):
                for k, v in src.items():
                    # null: a strategic merge deletes the key (the resource
                    # the plan replaces), so the pod does not ask it.
                    if v is None:
                        continue
                    if k.startswith("nvidia.com/") or k.startswith("gpu.nvidia.com"):
                        self.requests[k] = max(self.requests.get(k, 0), int(v))
        self.claims = ps.get("resourceClaims") or []
        frac.obj_fraction(self, (doc.get("metadata") or {}).get("namespace"))
        self.one_per_node = False
        self.skew = None
        aff = ps.get("affinity") or {}
        for t in ((aff.get("podAntiAffinity") or {})
                  .get("requiredDuringSchedulingIgnoredDuringExecution") or []):
            if t.get("topologyKey") == HOST:
                self.one_per_node = True
        for t in ps.get("topologySpreadConstraints") or []:
            if (t.get("topologyKey") == HOST and
                    t.get("whenUnsatisfiable", "DoNotSchedule") == "DoNotSchedule"):
                self.skew = int(t.get("maxSkew", 1))

    def admits(self, node):
        for k, v in (self.ps.get("nodeSelector") or {}).items():
            if node.labels.get(k) != str(v):
                return False
        # The device plugin allocates a pod's units on its one node, of
        # what the node advertises (a shared GPU: its replicas).
        for k, c in self.requests.items():
            if c > 1 and sum(u.replicas for u in node.units if u.resource == k) < c:
                return False
        req = (((self.ps.get("affinity") or {}).get("nodeAffinity") or {})
               .get("requiredDuringSchedulingIgnoredDuringExecution") or {})
        terms = req.get("nodeSelectorTerms") or []
        if terms and not any(term_matches(t, node.labels) for t in terms):
            return False
        return True


def percent_of(v, n, up):
    s = str(v)
    if s.endswith("%"):
        x = Decimal(s[:-1]) * n / 100
        return int(x.to_integral_value(ROUND_CEILING if up else "ROUND_FLOOR"))
    return int(s)


def owner(kind, name, doc, wls, by_object):
    meta = doc.get("metadata") or {}
    pm = pod_meta(kind, doc)
    for m in (meta, pm):
        for k in ("labels", "annotations"):
            v = (m.get(k) or {}).get(WL_KEY)
            if v is not None:
                return wls.get(str(v))
    if name in by_object:
        return by_object[name]
    m = re.fullmatch(r"(.+)-\d+", name or "")
    if m and m.group(1) in by_object:
        return by_object[m.group(1)]
    return None


# -- the adversary ---------------------------------------------------------------

class Adversary:
    def __init__(self, nodes, objs, wls, target, cat, em=None):
        self.nodes, self.objs, self.wls, self.target, self.cat = nodes, objs, wls, target, cat
        self.out = []
        self.frac = frac.Fractions(self, em)

    def v(self, where, rule, text):
        self.out.append("%s: %s: %s" % (where, rule, text))

    def cap_on(self, objs, node, elig):
        """Most pods of one workload (its objects objs) that may run on node."""
        total = 0
        for o in objs:
            c = o.pods
            if o.one_per_node:
                c = 1
            elif o.skew is not None:
                e = max(1, elig[id(o)])
                c = min(c, skew_cap(o.pods, e, o.skew))
            total += c
        return total

    def run(self):
        elig = {}
        for o in self.objs:
            elig[id(o)] = sum(1 for n in self.nodes if o.admits(n))
        placed = {w: False for w in self.wls}
        for node in self.nodes:
            # workload -> (objects admitted here, resources they request)
            here = {}
            for o in self.objs:
                if o.wl is None or not o.admits(node) or self.frac.modelled(o):
                    continue
                if not o.requests and not o.claims:
                    continue
                here.setdefault(o.wl.name, []).append(o)
            caps = {w: self.cap_on(os_, node, elig) for w, os_ in here.items()}
            per_gpu = {}
            for u in node.units:
                cands = []
                for w, os_ in here.items():
                    if any(o.requests.get(u.resource, 0) > 0 for o in os_):
                        cands.append((self.wls[w], caps[w]))
                        placed[w] = True
                if cands:
                    per_gpu.setdefault(u.gpu, []).append((u, cands))
                    self.check_unit(node, u, cands)
                    self.check_shared_counts("%s %s" % (node.where(), u.name()), u, cands,
                                             here)
            self.check_spread(node, caps, per_gpu)
        self.check_counts()
        self.frac.run(elig, placed)
        for o in self.objs:
            if o.claims and o.wl is not None and not self.frac.modelled(o):
                # Never a silent pass: DRA is not modelled (yet).
                placed[o.wl.name] = True
                self.v("object %s %s" % (o.kind, o.name), "dra",
                       "its pods take DRA claims, which the adversary does not model")
        for w, ok in sorted(placed.items()):
            if not ok and self.wls[w].replicas > 0:
                self.v("workload %s" % w, "placement",
                       "no node both matches its selectors and advertises what it requests")
        return self.out

    def check_counts(self):
        """An object's pods request what one replica holds: its workload's
        gpusPerReplica units (DRA claims are reported apart)."""
        for o in self.objs:
            if o.wl is None or not o.requests:
                continue
            most = max(o.requests.values())
            if most != o.wl.span:
                self.v("object %s %s" % (o.kind, o.name), "gpus",
                       "its pods request %d units, workload %s holds %d GPUs per replica"
                       % (most, o.wl.name, o.wl.span))

    def check_shared_counts(self, where, u, cands, here):
        for w, _ in cands:
            for o in here.get(w.name, []):
                c = o.requests.get(u.resource, 0)
                if c > 1 and u.replicas > 1:
                    self.v(where, "gpus", "%s's pods request %d of %s, shared x%d: the "
                           "device plugin may give them %d replicas of one GPU"
                           % (w.name, c, u.resource, u.replicas, c))

    def unit_memory(self, node, u):
        g = node.model
        if u.profile:
            p = g["mig"].get(u.profile)
            if p is None:
                return None
            return p["memory_mib"] * MIB
        return usable_bytes(g)

    def unit_compute(self, node, u):
        """The unit's compute in ppm of the whole GPU."""
        g = node.model
        if u.profile:
            p = g["mig"].get(u.profile)
            return None if p is None else p["sm"] * PPM // g["sm"]
        return PPM

    def check_unit(self, node, u, cands):
        where = "%s %s" % (node.where(), u.name())
        g = node.model
        mem = self.unit_memory(node, u)
        share = self.unit_compute(node, u)
        if mem is None:
            self.v(where, "mig", "%s has no MIG profile %s" % (g["name"], u.profile))
            return
        R = u.replicas
        items = []  # one entry per pod that may be here: (workload)
        for w, c in cands:
            items += [w] * min(c, R)
        comp = {w.name: w.compute_on(g, self.cat) for w, _ in cands}
        # alone: every admissible workload fits the unit by itself
        for w, _ in cands:
            if w.mem > mem + w.mem_tol:
                self.v(where, "memory", "%s alone needs %s, the unit offers %s"
                       % (w.name, gib(w.mem), gib(mem)))
            if comp[w.name] > share:
                self.v(where, "compute", "%s alone needs %s, the unit gives %s"
                       % (w.name, pct(comp[w.name]), pct(share)))
        if R < 2 or len(items) < 2:
            return
        # tenants and isolation
        tenants = sorted({w.tenant for w, _ in cands})
        if len(tenants) > 1:
            ex = []
            for t in tenants:
                ex.append(next(w.name for w, _ in cands if w.tenant == t))
            self.v(where, "tenant", "%s of tenants %s may share it"
                   % (" + ".join(ex), ", ".join(tenants)))
        for w, c in cands:
            if w.isolation == "fault":
                other = [x.name for x, _ in cands if x is not w]
                self.v(where, "isolation", "%s (isolation: fault) may share it with %s"
                       % (w.name, " + ".join(other) if other else "a replica of its own"))
        if u.mode == "mps":
            self.check_mps(where, node, u, cands, items, comp, share)
            return
        self.check_memory(where, items, mem, R)
        top = sorted(items, key=lambda w: -comp[w.name])[:R]
        total = sum(comp[w.name] for w in top)
        cap = self.target * share // PPM
        if total > cap:
            self.v(where, "compute", "%s: %s together > %s (targetUtilization %s%s)"
                   % (" + ".join(w.name for w in top), pct(total), pct(cap), pct(self.target),
                      " of the slice's %s" % pct(share) if u.profile else ""))

    def check_memory(self, where, items, mem, R):
        """The worst set of at most R items: for each item j as the one with
        the largest headroom, j and the R-1 largest others (exact, see the
        notes in README)."""
        order = sorted(range(len(items)), key=lambda i: -items[i].mem)
        worst = None
        for j in sorted(set(range(len(items))), key=lambda i: -items[i].headroom_ppm):
            s = [j] + [i for i in order if i != j][:R - 1]
            if len(s) < 2:
                continue
            h = max(items[i].headroom_ppm for i in s)
            offer = mem * (PPM - h) // PPM
            tot = sum(items[i].mem for i in s)
            tol = sum(items[i].mem_tol for i in s)
            if tot > offer + tol and (worst is None or tot - offer > worst[0]):
                worst = (tot - offer, s, tot, offer, h)
        if worst:
            _, s, tot, offer, h = worst
            self.v(where, "memory", "%s: %s together > %s (%s less %s headroom)"
                   % (" + ".join("%s %s" % (items[i].name, gib(items[i].mem)) for i in s),
                      gib(tot), gib(offer), gib(mem), pct(h)))

    def check_mps(self, where, node, u, cands, items, comp, share):
        g = node.model
        R = u.replicas
        limit = (g["memory_mib"] * MIB // R) >> 20 << 20
        threads = (100 // R) * 10000
        for w, _ in cands:
            if w.mem > limit + w.mem_tol:
                self.v(where, "mps", "%s needs %s, each of %d clients gets %s"
                       % (w.name, gib(w.mem), R, gib(limit)))
            if comp[w.name] > threads:
                self.v(where, "mps", "%s needs %s, each of %d clients gets %d%% threads"
                       % (w.name, pct(comp[w.name]), R, 100 // R))
        top = sorted(items, key=lambda w: -w.mem)[:R]
        tot = sum(w.mem for w in top)
        if tot > usable_bytes(g) + sum(w.mem_tol for w in top):
            self.v(where, "memory", "%s: %s together > %s usable"
                   % (" + ".join(w.name for w in top), gib(tot), gib(usable_bytes(g))))
        top = sorted(items, key=lambda w: -comp[w.name])[:R]
        total = sum(comp[w.name] for w in top)
        if total > self.target:
            self.v(where, "compute", "%s: %s together > targetUtilization %s"
                   % (" + ".join(w.name for w in top), pct(total), pct(self.target)))

    def check_spread(self, node, caps, per_gpu):
        for wname, c in sorted(caps.items()):
            w = self.wls[wname]
            if w.spread == "node" and c >= 2:
                slots = sum(u.replicas for u in node.units
                            if any(cw is w for uu, cands in per_gpu.get(u.gpu, [])
                                   if uu is u for cw, _ in cands))
                if slots >= 2:
                    self.v(node.where(), "spread", "%s (spread: node) may have %d pods here"
                           % (wname, min(c, slots)))
            if w.spread == "gpu" and c >= 2:
                for gi, lst in sorted(per_gpu.items()):
                    slots = sum(u.replicas for u, cands in lst if any(cw is w for cw, _ in cands))
                    if slots >= 2:
                        self.v("%s gpu %d" % (node.where(), gi), "spread",
                               "%s (spread: gpu) may have %d pods on this GPU"
                               % (wname, min(c, slots)))


def skew_cap(r, e, s):
    """Most of r pods on one of e hostname domains under maxSkew s."""
    if e <= 1:
        return r
    best = 1
    for c in range(1, r + 1):
        if c <= s + (r - c) // (e - 1):
            best = c
    return best


# -- main ------------------------------------------------------------------------

def profiles_dirs(arg):
    if arg:
        return arg.split(":")
    env = os.environ.get("GPUSHARE_PROFILES")
    if env:
        return env.split(":")
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.normpath(os.path.join(here, "..", "..", "profiles"))]


def check(d, wfile, plan_path, profiles=None, surge=True):
    """Returns (exit status, lines)."""
    cat = Catalog(profiles_dirs(profiles))
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    wls, target = load_workloads(wfile, plan)
    em = Emitted(d)
    errors = []
    nodes = build_nodes(em, plan, cat, errors)
    by_object = {}
    for w in wls.values():
        by_object.setdefault(w.object_name, w)
    owners = []
    for kind, name, doc in em.objects:
        wl = owner(kind, name, doc, wls, by_object)
        if wl is None:
            errors.append("object %s %s: belongs to no workload of the plan" % (kind, name))
        owners.append((kind, name, doc, wl))

    def play(with_surge):
        objs = [Obj(k, n, doc, wl, with_surge) for k, n, doc, wl in owners]
        return Adversary(nodes, objs, wls, target, cat, em).run()

    out = play(False)
    if surge:
        # What a rolling update adds: the surge pods beside the old ones.
        seen = {tuple(x.split(": ", 2)[:2]) for x in out}
        for x in play(True):
            where, rule, text = x.split(": ", 2)
            if (where, rule) not in seen:
                out.append("%s: %s during a rollout (maxSurge): %s" % (where, rule, text))
    out = errors + out
    if out:
        return 1, out
    return 0, ["adversary: %d nodes, %d workloads, 0 violations" % (len(nodes), len(wls))]


def main(argv):
    args, profiles, surge = [], None, True
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--profiles" and i + 1 < len(argv):
            profiles = argv[i + 1]
            i += 1
        elif a.startswith("--profiles="):
            profiles = a.split("=", 1)[1]
        elif a == "--no-surge":
            surge = False
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            args.append(a)
        i += 1
    if len(args) != 3:
        sys.stderr.write("usage: adversary.py [--profiles DIRS] [--no-surge] DIR FILE PLAN.json\n")
        return 2
    try:
        rc, lines = check(args[0], args[1], args[2], profiles, surge)
    except (Bad, OSError, ValueError, KeyError, TypeError, yaml.YAMLError) as e:
        sys.stderr.write("adversary.py: %s: %s\n" % (type(e).__name__, e))
        return 2
    print("\n".join(lines))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
