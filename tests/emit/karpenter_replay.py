#!/usr/bin/env python3
"""karpenter_replay.py - replays every planned pod against the emitted
NodePools and NodeOverlays with Karpenter's provisioning rule, and checks
that the planned instance type (and node configs) is what gets launched,
and as many nodes as planned.

usage: karpenter_replay.py BIN FILE...

For each FILE, with and without --rename-shared, one run of `BIN plan
FILE --emit DIR --karpenter --format json` gives both what is replayed
and what it is checked against: on stdout, the planned nodes (type,
configs, pool, GPUs and who is on them); in DIR, the NodePools, the
NodeOverlays and the workloads' patches (any document with a pod
template; its selector is read generally: nodeSelector and required
nodeAffinity In/NotIn/Exists/DoesNotExist, so pool selectors and config
selectors both work). One run, not one per output: the plan is the
suite's costliest step under the sanitizers, and the files must agree
with the plan printed beside them.

Karpenter's rule as replayed (kubernetes-sigs/karpenter scheduler): a
pending pod first joins an in-flight NodeClaim (fewest pods first) that it
is compatible with and that still has an instance type whose capacity
holds all its pods; else NodePools are tried by weight (then name), and the first one whose
requirements and template labels satisfy the pod's selector, whose taints
it tolerates, and that has an instance type with room (capacity after
NodeOverlays, within the NodePool's limits) opens a NodeClaim. A NodeClaim
launches its cheapest remaining instance type. Overlays apply where their
requirements are compatible with the NodePool's name, template labels and
the instance type's labels; higher weight wins, same weight and same
resource is a conflict (Karpenter then applies neither).

Pods with required pod anti-affinity per node (kubernetes.io/hostname)
never share a NodeClaim with a pod one of them selects. With
--rename-shared, replicas of one workload that request different resources
need copies of its object, which plan --emit makes only from manifests:
such inputs are given a Deployment per workload (--manifests), and the
pods replayed are the objects as applied (manifests and copies with their
patches merged in).

The pods are taken in Karpenter's queue order: by the CPU their workload
requests (the plan's cpu), largest first, else in file order.

Left out: CPU/memory capacity and daemonset overhead, existing nodes,
zones, spot's price-capacity-optimized choice. Pods with DRA claims and no
extended resource are skipped (Karpenter does not simulate claims).
Python 3 with PyYAML.
"""

import collections
import json
import re
import os
import subprocess
import sys
import tempfile

import yaml

GPU = "nvidia.com/gpu"
POOL = "gpushare.io/pool"


class Rejected(Exception):
    """The planner refused the input: nothing to replay."""


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr.strip()))
    return r.stdout


def plan_and_emit(binary, path, opts, out, man):
    """The plan JSON of one run that also emits into out (with the
    manifests man, if any). Rejected where the planner refuses the input:
    a failed run is asked again without --emit, so that a refusal is told
    from a failure to emit."""
    argv = [binary, "plan", path, "--emit", out, "--karpenter", "--format", "json"] + opts
    try:
        return run(argv + (["--manifests", man] if man else []))
    except RuntimeError:
        r = subprocess.run([binary, "plan", path, "--format", "json"] + opts,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise Rejected(r.stderr.strip())
        raise


# ---- what the plan says ------------------------------------------------------

def mig_resource(profile, shared):
    return "nvidia.com/mig-" + profile.replace("+", ".") + (".shared" if shared else "")


def advertised(node, rename):
    """The extended resources a planned node's device plugin advertises."""
    cap = collections.Counter({GPU: 0})
    for g in node["gpus"]:
        if g["mig"]:
            for m in g["mig"]:
                r = m["replicas"]
                cap[mig_resource(m["profile"], rename and r > 1)] += max(r, 1)
        elif g.get("backend") == "hami":
            # HAMi's slots, and what its pods ask beside: the plan's usable
            # memory (GiB to 2 decimals, rounded down to MiB) and SM %.
            cap[GPU] += max(10, len(g["assignments"]))
            cap["nvidia.com/gpumem"] += int(g["memory_capacity_gib"] * 1024)
            cap["nvidia.com/gpucores"] += 100
        elif g["strategy"] in ("time-slicing", "mps"):
            cap[GPU + (".shared" if rename else "")] += g["replicas"]
        else:
            cap[GPU] += 1
    return cap


def planned_labels(node, pricing):
    labels = {
        "node.kubernetes.io/instance-type": node["instance"],
        "nvidia.com/device-plugin.config": node["config"],
        POOL: node.get("pool") or node["config"],
        "karpenter.sh/capacity-type": pricing,
    }
    if node.get("mig_config"):
        labels["nvidia.com/mig.config"] = node["mig_config"]
    return labels


def hosts(plan):
    """workload name -> indexes of the planned nodes its replicas are on."""
    out = collections.defaultdict(set)
    for i, n in enumerate(plan["nodes"]):
        for g in n["gpus"]:
            for a in g["assignments"]:
                out[a["workload"]].add(i)
            for m in g["mig"]:
                for a in m["assignments"]:
                    out[a["workload"]].add(i)
    return out


# ---- label requirements ------------------------------------------------------

class Labels:
    """What a node may carry: key -> ("in", values) or ("notin", values)."""

    def __init__(self):
        self.k = {}

    def fix(self, key, value):
        self.add(key, "In", [value])

    def add(self, key, op, values):
        values = set(values or [])
        cur = self.k.get(key)
        if op == "In":
            new = ("in", values)
        elif op == "NotIn":
            new = ("notin", values)
        else:
            return
        if cur is None:
            self.k[key] = new
        elif cur[0] == "in" and new[0] == "in":
            self.k[key] = ("in", cur[1] & new[1])
        elif cur[0] == "in":
            self.k[key] = ("in", cur[1] - new[1])
        elif new[0] == "in":
            self.k[key] = ("in", new[1] - cur[1])
        else:
            self.k[key] = ("notin", cur[1] | new[1])

    def satisfies(self, key, op, values):
        values = set(values or [])
        cur = self.k.get(key)
        if op == "In":
            if cur is None:
                return False
            return bool(cur[1] & values) if cur[0] == "in" else bool(values - cur[1])
        if op == "NotIn":
            return cur is None or cur[0] == "notin" or bool(cur[1] - values)
        if op == "Exists":
            return cur is not None
        if op == "DoesNotExist":
            return cur is None
        raise ValueError("operator %s not replayed" % op)

    def all(self, exprs):
        return all(self.satisfies(e["key"], e["operator"], e.get("values")) for e in exprs)


def pod_terms(spec):
    """The pod's node requirements as a list of alternative term lists."""
    base = [{"key": k, "operator": "In", "values": [str(v)]}
            for k, v in (spec.get("nodeSelector") or {}).items()]
    req = (((spec.get("affinity") or {}).get("nodeAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = req.get("nodeSelectorTerms") or [{}]
    return [base + (t.get("matchExpressions") or []) for t in terms]


def pod_fits_labels(terms, labels):
    return any(labels.all(t) for t in terms)


def tolerates(tols, taint):
    for t in tols or []:
        if t.get("effect") and t["effect"] != taint.get("effect"):
            continue
        if t.get("operator") == "Exists":
            if not t.get("key") or t["key"] == taint["key"]:
                return True
        elif t.get("key") == taint["key"] and str(t.get("value", "")) == str(taint.get("value", "")):
            return True
    return False


# ---- what was emitted --------------------------------------------------------

def documents(path):
    """(name, document) for each YAML document of a file: the name that a
    comment line "# Deployment NAME: ..." before its "---" gives, if any."""
    kinds = ("Deployment", "StatefulSet", "Job", "CronJob", "Pod")
    chunks, name, nxt, cur = [], None, None, []
    for line in open(path).read().split("\n"):
        if line == "---":
            chunks.append((name, "\n".join(cur)))
            cur, name, nxt = [], nxt, None
            continue
        words = line[2:].split() if line.startswith("# ") else []
        if len(words) >= 2 and words[0] in kinds:
            nxt = words[1].rstrip(":")
        cur.append(line)
    chunks.append((name, "\n".join(cur)))
    out = []
    for name, body in chunks:
        doc = yaml.safe_load(body) if body.strip() else None
        if doc is not None:
            out.append((name, doc))
    return out


def pod_template(doc):
    """(pod spec, replicas) of a workload document or patch, else None."""
    spec = doc.get("spec") or {}
    if not isinstance(spec, dict):
        return None
    if "jobTemplate" in spec:
        js = (spec["jobTemplate"] or {}).get("spec") or {}
        return ((js.get("template") or {}).get("spec"), js.get("parallelism", 1))
    if "template" in spec:
        n = spec.get("replicas", spec.get("parallelism", 1))
        return ((spec["template"] or {}).get("spec"), n)
    if "containers" in spec:
        return (spec, 1)
    return None


def pod_labels(doc):
    """The labels of a workload document's pods (its pod template's)."""
    spec = doc.get("spec") or {}
    if "jobTemplate" in spec:
        spec = ((spec["jobTemplate"] or {}).get("spec")) or {}
    meta = (spec.get("template") or {}).get("metadata") if "template" in spec \
        else doc.get("metadata")
    return {k: str(v) for k, v in ((meta or {}).get("labels") or {}).items()}


def requests(spec):
    req = collections.Counter()
    for c in spec.get("containers") or []:
        res = c.get("resources") or {}
        r = res.get("requests") or res.get("limits") or {}
        for k, v in (res.get("limits") or {}).items():
            r.setdefault(k, v)
        for k, v in r.items():
            # null: deleted by the strategic merge, not requested
            if "/" in k and v is not None:
                req[k] += int(v)
    return req


def spread_key(spec, group):
    for c in spec.get("topologySpreadConstraints") or []:
        if (c.get("topologyKey") == "kubernetes.io/hostname"
                and c.get("whenUnsatisfiable") == "DoNotSchedule"):
            return group
    return None


def write_manifests(path, out):
    """A Deployment per workload of the scenario at path (its object's
    name, namespace and container, else the workload's name and "main"),
    as tests/emit/apply.sh's manifests_of writes them."""
    s = yaml.safe_load(open(path))
    with open(out, "w") as f:
        for w in s.get("workloads") or []:
            o = w.get("object") or {}
            if o.get("kind", "Deployment") != "Deployment":
                continue
            n = o.get("name", w["name"])
            meta = {"name": n}
            if "namespace" in o:
                meta["namespace"] = o["namespace"]
            f.write(yaml.safe_dump({
                "apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta,
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": n}},
                         "template": {"metadata": {"labels": {"app": n}},
                                      "spec": {"containers": [
                                          {"name": o.get("container", "main"),
                                           "image": "registry.example.com/x:1"}]}}}},
                explicit_start=True, sort_keys=False))


def merge(base, patch):
    """A strategic merge, as far as pod templates need it: maps merge, lists
    of named items (containers) merge by name, other lists are replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            out[k] = merge(base[k], v) if k in base else v
        return out
    if (isinstance(base, list) and isinstance(patch, list)
            and all(isinstance(x, dict) and "name" in x for x in base + patch)):
        out = [dict(x) for x in base]
        for x in patch:
            i = next((j for j, y in enumerate(out) if y["name"] == x["name"]), None)
            if i is None:
                out.append(x)
            else:
                out[i] = merge(out[i], x)
        return out
    return patch


def obj_key(doc, ns="default"):
    m = doc.get("metadata") or {}
    return (doc.get("kind"), m.get("name"), m.get("namespace") or ns)


def built(out):
    """(file, name, document) for what the emitted set holds once applied:
    the complete objects it carries (the manifests, the copies) with the
    patches that target them merged in, each patch alone whose object is in
    the cluster, and every other document (NodePools, NodeOverlays)."""
    docs, patches = [], []
    for root, _, files in os.walk(out):
        for f in sorted(files):
            if f.endswith(".yaml") and f != "kustomization.yaml":
                for n, d in documents(os.path.join(root, f)):
                    (patches if f.startswith("patch-") else docs).append((f, n, d))
    by_key = {obj_key(d): i for i, (_, _, d) in enumerate(docs)
              if isinstance(d, dict) and pod_template(d)}
    for f, n, d in patches:
        i = by_key.get(obj_key(d)) if isinstance(d, dict) else None
        if i is None:
            docs.append((f, n, d))
        else:
            docs[i] = (f, n, merge(docs[i][2], d))
    return docs


def anti_terms(spec):
    """The label selectors of the pod's required anti-affinity per node
    (topologyKey kubernetes.io/hostname): no two pods one of them excludes
    share a node. Other topology keys (zones) are not replayed."""
    req = (((spec.get("affinity") or {}).get("podAntiAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution") or [])
    out = []
    for t in req:
        if t.get("topologyKey") != "kubernetes.io/hostname":
            raise ValueError("pod anti-affinity on %s not replayed" % t.get("topologyKey"))
        out.append(t.get("labelSelector") or {})
    return out


def selects(sel, labels):
    """Whether a label selector (matchLabels, matchExpressions) selects labels."""
    for k, v in (sel.get("matchLabels") or {}).items():
        if labels.get(k) != str(v):
            return False
    for e in sel.get("matchExpressions") or []:
        k, op, vals = e["key"], e["operator"], [str(v) for v in e.get("values") or []]
        if op == "In" and labels.get(k) not in vals:
            return False
        if op == "NotIn" and k in labels and labels[k] in vals:
            return False
        if op == "Exists" and k not in labels:
            return False
        if op == "DoesNotExist" and k in labels:
            return False
    return True


def repels(a, b):
    """Whether pods a and b may not share a node: either one's required
    anti-affinity selects the other (the scheduler checks both ways)."""
    return (any(selects(t, b["labels"]) for t in a["anti"])
            or any(selects(t, a["labels"]) for t in b["anti"]))


# ---- Karpenter ---------------------------------------------------------------

class Pool:
    def __init__(self, doc, catalog, pricing):
        spec = doc["spec"]
        tmpl = spec["template"]
        self.name = doc["metadata"]["name"]
        self.weight = spec.get("weight", 0)
        self.labels = (tmpl.get("metadata") or {}).get("labels") or {}
        self.reqs = tmpl["spec"].get("requirements") or []
        self.taints = tmpl["spec"].get("taints") or []
        self.limits = {k: float(v) for k, v in (spec.get("limits") or {}).items()}
        self.used = collections.Counter()
        self.types = {}
        for t, info in catalog.items():
            lab = self.node_labels(t, info)
            if lab.all(self.reqs):
                self.types[t] = lab

    def node_labels(self, t, info):
        lab = Labels()
        lab.fix("karpenter.sh/nodepool", self.name)
        for k, v in self.labels.items():
            lab.fix(k, str(v))
        lab.fix("node.kubernetes.io/instance-type", t)
        lab.fix("kubernetes.io/arch", info["arch"])
        lab.fix("kubernetes.io/os", "linux")
        lab.add("karpenter.sh/capacity-type", "In", ["on-demand", "spot"])
        for r in self.reqs:
            lab.add(r["key"], r["operator"], r.get("values"))
        return lab


def overlaid(pools, overlays, catalog, problems):
    """(pool name, type) -> capacity after the overlays."""
    cap = {}
    order = sorted(overlays, key=lambda o: (-(o["spec"].get("weight") or 0),
                                            o["metadata"]["name"]))
    for p in pools:
        for t, lab in p.types.items():
            c = {GPU: catalog[t]["gpu_count"]}
            setby = {}
            for o in order:
                if not lab.all(o["spec"].get("requirements") or []):
                    continue
                w = o["spec"].get("weight") or 0
                for k, v in (o["spec"].get("capacity") or {}).items():
                    if k in setby and setby[k][1] == w:
                        problems.append("overlays %s and %s conflict on %s for %s/%s"
                                        % (setby[k][0], o["metadata"]["name"], k, p.name, t))
                    if k not in setby:
                        setby[k] = (o["metadata"]["name"], w)
                        c[k] = int(v)
            cap[(p.name, t)] = c
    return cap


def fits(cap, used):
    return all(cap.get(k, 0) >= v for k, v in used.items())


def within_limits(pool, cap):
    return all(pool.used[k] + cap.get(k, 0) <= lim for k, lim in pool.limits.items())


def price(catalog, t, pricing):
    return catalog[t]["spot_per_hour" if pricing == "spot" else "on_demand_per_hour"]


def replay(pods, pools, cap, catalog, pricing):
    """Launches NodeClaims for pods; returns (claims, pod -> claim index)."""
    pools = sorted(pools, key=lambda p: (-p.weight, p.name))
    claims, where = [], {}
    # Karpenter's queue takes the pods by CPU request, largest first (a
    # stable sort; memory breaks no ties: byCPUAndMemoryDescending).
    order = sorted(range(len(pods)), key=lambda i: -pods[i]["cpu"])
    for i in order:
        pod = pods[i]
        placed = False
        # In-flight NodeClaims are tried fewest pods first (Karpenter sorts
        # them so before each pod), in launch order among equals.
        for ci in sorted(range(len(claims)), key=lambda c: len(claims[c]["pods"])):
            cl = claims[ci]
            p = cl["pool"]
            if not pod["ok"].get(p.name):
                continue
            if pod["spread"] and pod["spread"] in cl["spread"]:
                continue
            if any(repels(pod, o) for o in cl["pods"]):
                continue
            used = cl["used"] + pod["req"]
            left = [t for t in cl["types"] if fits(cap[(p.name, t)], used)]
            if left:
                cl.update(used=used, types=left)
                cl["pods"].append(pod)
                if pod["spread"]:
                    cl["spread"].add(pod["spread"])
                where[i] = ci
                placed = True
                break
        if placed:
            continue
        for p in pools:
            if not pod["ok"].get(p.name):
                continue
            left = [t for t in p.types if fits(cap[(p.name, t)], pod["req"])
                    and within_limits(p, cap[(p.name, t)])]
            if not left:
                continue
            big = collections.Counter()
            for t in left:
                for k, v in cap[(p.name, t)].items():
                    big[k] = max(big[k], v)
            p.used.update(big)
            claims.append({"pool": p, "types": left, "used": collections.Counter(pod["req"]),
                           "spread": {pod["spread"]} if pod["spread"] else set(),
                           "pods": [pod]})
            where[i] = len(claims) - 1
            break
    for cl in claims:
        cl["type"] = min(cl["types"], key=lambda t: (price(catalog, t, pricing), t))
    return claims, where


# ---- one file ----------------------------------------------------------------

def check(binary, path, opts, catalog):
    """Problems found replaying path planned with opts; also the counts."""
    problems = []
    rename = "--rename-shared" in opts
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        try:
            plan = plan_and_emit(binary, path, opts, out, None)
        except RuntimeError as e:
            # Replicas that request different resources (some dedicated, some
            # shared under --rename-shared) need copies of their object, which
            # plan --emit makes only from the manifests: give it theirs.
            if "give its manifest with --manifests" not in str(e):
                raise
            man = os.path.join(tmp, "manifests.yaml")
            write_manifests(path, man)
            plan = plan_and_emit(binary, path, opts, out, man)
        plan = json.loads(plan)
        if not os.path.exists(os.path.join(out, "karpenter.yaml")):
            return problems, None
        docs = built(out)
    pricing = plan["cost"]["pricing"]
    pools = [Pool(d, catalog, pricing) for _, _, d in docs
             if isinstance(d, dict) and d.get("kind") == "NodePool"]
    overlays = [d for _, _, d in docs if isinstance(d, dict) and d.get("kind") == "NodeOverlay"]
    cap = overlaid(pools, overlays, catalog, problems)
    nodes = plan["nodes"]
    aws = [i for i, n in enumerate(nodes) if n["cloud"] == "aws"]
    by_wl = hosts(plan)
    names = {w["name"] for w in plan["workloads"]}
    cpu = {w["name"]: w.get("cpu") or 0 for w in plan["workloads"]}
    pods, skipped = [], 0
    for gi, (f, name, d) in enumerate(docs):
        if not isinstance(d, dict) or d.get("kind") in ("NodePool", "NodeOverlay"):
            continue
        pt = pod_template(d)
        if not pt or not pt[0]:
            continue
        spec, replicas = pt
        req = requests(spec)
        name = (d.get("metadata") or {}).get("name") or name
        labels = pod_labels(d)
        wl = labels.get("gpushare.io/workload")
        if wl not in names:
            wl = name if name in names else (name.rsplit("-", 1)[0] if name else None)
        terms = pod_terms(spec)
        cand = by_wl.get(wl, set(range(len(nodes)))) if wl in names else set(range(len(nodes)))
        exp = set()
        for i in cand:
            lab = Labels()
            for k, v in planned_labels(nodes[i], pricing).items():
                lab.fix(k, v)
            if pod_fits_labels(terms, lab) and fits(advertised(nodes[i], rename), req):
                exp.add(i)
        if not req:
            skipped += int(replicas)
            continue
        if exp and not any(i in aws for i in exp):
            continue
        ok = {}
        for p in pools:
            tol = all(tolerates(spec.get("tolerations"), t) for t in p.taints
                      if t.get("effect") in ("NoSchedule", "NoExecute"))
            ok[p.name] = tol and any(pod_fits_labels(terms, lab) for lab in p.types.values())
        for r in range(int(replicas)):
            pods.append({"what": "%s %s replica %d" % (f, name or "?", r), "req": req,
                         "ok": ok, "spread": spread_key(spec, (f, gi)),
                         "labels": labels, "anti": anti_terms(spec), "cpu": cpu.get(wl, 0),
                         "expect": {key(nodes[i]) for i in exp}})
    claims, where = replay(pods, pools, cap, catalog, pricing)
    launched = collections.Counter()
    for ci, cl in enumerate(claims):
        launched[(cl["type"], cl["pool"].labels.get("nvidia.com/device-plugin.config"),
                  cl["pool"].labels.get("nvidia.com/mig.config"))] += 1
    warned = spanned_pools(plan)
    for i, pod in enumerate(pods):
        mine = {p.labels.get("gpushare.io/pool") for p in pools if pod["ok"].get(p.name)}
        if not pod["expect"]:
            problems.append("%s (%s) matches no planned node"
                            % (pod["what"], dict(pod["req"])))
        elif i not in where and mine & warned:
            # A workload spanning pools took its slot: the plan warns of
            # exactly this (pods wait for a slot), so it is reported, not
            # failed; the launched nodes must still be the planned ones.
            print("note %s: %s waits for a slot in %s, as the plan warns"
                  % (path, pod["what"], ", ".join(sorted(mine & warned))))
        elif i not in where:
            problems.append("%s (%s) launches no node" % (pod["what"], dict(pod["req"])))
        else:
            cl = claims[where[i]]
            got = (cl["type"], cl["pool"].labels.get("nvidia.com/device-plugin.config"),
                   cl["pool"].labels.get("nvidia.com/mig.config"))
            if got not in pod["expect"]:
                problems.append("%s launches %s, planned %s"
                                % (pod["what"], got, sorted(pod["expect"], key=str)))
    planned = collections.Counter(key(nodes[i]) for i in aws)
    if not skipped and launched != planned:
        problems.append("launched %s, planned %s" % (dict(launched), dict(planned)))
    return problems, (len(pods), len(claims), skipped)


def spanned_pools(plan):
    """The pools the plan warns that workloads spanning pools may fill."""
    out = set()
    for w in plan.get("warnings") or []:
        m = re.search(r"spans? several node pools: (.*)\. (?:Its|Their) pods", w)
        if not m:
            continue
        for part in m.group(1).split("; "):
            if " in " in part:
                out.update(x.strip() for x in part.split(" in ", 1)[1].split(","))
    return out


def key(node):
    return (node["instance"], node["config"], node.get("mig_config"))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    binary = argv[1]
    catalog = {i["instance"]: i for i in json.loads(run([binary, "instances", "--format",
                                                          "json"])) if i["cloud"] == "aws"}
    failed = passed = skipped = 0
    for path in argv[2:]:
        for opts in ([], ["--rename-shared"]):
            what = " ".join([os.path.basename(path)] + opts)
            try:
                problems, counts = check(binary, path, opts, catalog)
            except Rejected:
                skipped += 1
                continue
            except (RuntimeError, ValueError, KeyError) as e:
                problems, counts = ["%s" % e], None
            if counts is None and not problems:
                continue
            if problems:
                failed += 1
                print("FAIL %s" % what)
                for p in problems[:20]:
                    print("  " + p)
                if len(problems) > 20:
                    print("  ... %d more" % (len(problems) - 20))
            else:
                passed += 1
                print("ok   %s: %d pods, %d nodes launched as planned%s"
                      % (what, counts[0], counts[1],
                         ", %d DRA pods skipped" % counts[2] if counts[2] else ""))
    print("karpenter replay: %d passed, %d failed (%d inputs the planner refuses)"
          % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
