#!/usr/bin/env python3
"""apply_check.py - the object kustomize built from a real manifest and the
emitted patch, checked against the manifest: the planned GPU request on the
real container, no container added, the pods in their pools, and nothing
else changed (issue 14 section 2).

usage: apply_check.py SAMPLE KIND NAME CONTAINER BUILT [PATCHED]
BUILT is `kubectl kustomize DIR`; PATCHED, if given, `kubectl patch --local`
of the same object, which must equal the built one."""
import copy
import sys

import yaml

OURS_LABEL = "gpushare.io/"


def find(docs, kind, name):
    hits = [d for d in docs if d and d.get("kind") == kind
            and d.get("metadata", {}).get("name") == name]
    if len(hits) != 1:
        sys.exit(f"{len(hits)} objects {kind}/{name} in the output, want 1")
    return hits[0]


def pod_parts(obj):
    """(the object's spec holding replicas, the pod template metadata, the pod spec)"""
    kind = obj["kind"]
    spec = obj.get("spec", {})
    if kind == "Pod":
        return None, obj.setdefault("metadata", {}), spec
    if kind == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    t = spec.setdefault("template", {})
    return spec, t.setdefault("metadata", {}), t.setdefault("spec", {})


def strip(obj, container):
    """obj without the keys the patch may set."""
    o = copy.deepcopy(obj)
    o.get("metadata", {}).pop("namespace", None)
    spec, meta, pod = pod_parts(o)
    if spec is not None:
        for k in ("replicas", "parallelism", "strategy"):
            spec.pop(k, None)
    labels = meta.get("labels") or {}
    for k in [k for k in labels if k.startswith(OURS_LABEL)]:
        del labels[k]
    if not labels:
        meta.pop("labels", None)
    if not meta and o["kind"] != "Pod":
        spec["template"].pop("metadata", None)
    sel = pod.get("nodeSelector") or {}
    sel.pop("gpushare.io/pool", None)
    # The manifest's own GPU selection (gpu.product, device-plugin.config)
    # gives way to the plan's pools: gpushare deletes it on purpose.
    for k in [k for k in sel if k.startswith("nvidia.com/")]:
        del sel[k]
    if not sel:
        pod.pop("nodeSelector", None)
    for k in ("affinity", "tolerations", "resourceClaims"):
        pod.pop(k, None)
    for c in pod.get("containers", []):
        if c.get("name") == container:
            c.pop("resources", None)
            c.pop("env", None)
    return o


def main():
    sample, kind, name, container, built = sys.argv[1:6]
    patched = sys.argv[6] if len(sys.argv) > 6 else None
    before = find(list(yaml.safe_load_all(open(sample))), kind, name)
    after = find(list(yaml.safe_load_all(open(built))), kind, name)
    errors = []
    _, _, pod0 = pod_parts(copy.deepcopy(before))
    _, meta, pod = pod_parts(copy.deepcopy(after))
    names0 = [c["name"] for c in pod0.get("containers", [])]
    names = [c["name"] for c in pod.get("containers", [])]
    if names != names0:
        errors.append(f"containers {names}, the manifest has {names0}")
    ctr = [c for c in pod.get("containers", []) if c.get("name") == container]
    res = (ctr[0].get("resources") or {}) if ctr else {}
    gpu = {k: v for k, v in (res.get("limits") or {}).items() if k.startswith("nvidia.com/")}
    claims = res.get("claims") or []
    if claims:
        if gpu:
            errors.append(f"device-plugin limits {gpu} beside DRA claims")
        names = {c.get("name") for c in pod.get("resourceClaims") or []}
        for c in pod.get("resourceClaims") or []:
            if ("resourceClaimName" in c) == ("resourceClaimTemplateName" in c):
                errors.append(f"pod claim {c.get('name')}: not exactly one of "
                              f"resourceClaimName and resourceClaimTemplateName: {c}")
        if any(c.get("name") not in names for c in claims):
            errors.append("a container claim the pod does not declare")
    elif len(gpu) != 1 or str(list(gpu.values())[0]) != "1":
        errors.append(f"the container {container} asks for {gpu}, want one GPU resource: 1")
    reqs = {k: v for k, v in (res.get("requests") or {}).items() if k.startswith("nvidia.com/")}
    if reqs and reqs != gpu:
        errors.append(f"requests {reqs} differ from limits {gpu}")
    pool = (pod.get("nodeSelector") or {}).get("gpushare.io/pool")
    aff = (((pod.get("affinity") or {}).get("nodeAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution"))
    if not pool and not aff:
        errors.append("no gpushare.io/pool nodeSelector nor node affinity")
    if not (meta.get("labels") or {}).get("gpushare.io/workload"):
        errors.append("the pods lack the gpushare.io/workload label")
    if strip(before, container) != strip(after, container):
        errors.append("other fields changed:\n  manifest: %s\n  built:    %s" % (
            yaml.safe_dump(strip(before, container), sort_keys=True).replace("\n", "\n    "),
            yaml.safe_dump(strip(after, container), sort_keys=True).replace("\n", "\n    ")))
    if patched:
        p = find(list(yaml.safe_load_all(open(patched))), kind, name)
        a = copy.deepcopy(after)
        for o in (p, a):
            o.get("metadata", {}).pop("namespace", None)
            # A quantity is one value however written: "1" (the manifest's
            # style, which kustomize keeps) and 1.
            for c in pod_parts(o)[2].get("containers", []):
                for sec in (c.get("resources") or {}).values():
                    if isinstance(sec, dict):
                        for k in sec:
                            sec[k] = str(sec[k])
        if p != a:
            errors.append("kubectl patch --local and kustomize differ:\n  patch: %s\n  kustomize: %s"
                          % (yaml.safe_dump(p, sort_keys=True).replace("\n", "\n    "),
                             yaml.safe_dump(a, sort_keys=True).replace("\n", "\n    ")))
    for e in errors:
        print(f"  {kind}/{name}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
