#!/bin/sh
# apply.sh BIN - what `plan --emit DIR` writes applies with the real
# clients, offline (issue 14 section 2): for every example and the EKS repro
# (and each under via: dra) `kubectl kustomize DIR` builds the set and
# `gpushare lint DIR/*` is clean; for each real manifest of
# shared/samples/pods (Deployments, Jobs, Pods) the patch, applied by
# kustomize and by `kubectl patch --local`, gives the planned GPU request on
# the real container, no added container, the pool selector and nothing
# else changed (apply_check.py), and the built objects pass the Kubernetes
# validators of shared/tools/validate. Skips loudly where kubectl or node
# is missing.
set -u
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
top=$(pwd)
shared="$top/../shared"
here="$top/tests/emit"
pass=0
fail=0

if ! command -v kubectl >/dev/null 2>&1; then
	echo "apply: SKIPPED: kubectl is not installed, so nothing was applied" >&2
	exit 0
fi
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! $py -c 'import yaml' 2>/dev/null; then
	echo "apply: python3-yaml is missing (apt-get install -y python3-yaml)" >&2
	exit 1
fi
validate=
if ! command -v node >/dev/null 2>&1; then
	echo "apply: node is not installed: the built objects are NOT validated" >&2
elif [ ! -f "$top/build/validate/.installed" ]; then
	echo "apply: the validators are not installed (sh tests/emit/validate.sh installs" \
	    "them): the built objects are NOT validated" >&2
else
	validate="$top/build/validate/validate-k8s.mjs"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { # what file-with-output
	fail=$((fail + 1))
	echo "FAIL: $1" >&2
	[ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -40 >&2
}

# A Deployment per workload of F whose object is one (container main
# unless named), for the sets that need copies (DRA claims per GPU).
manifests_of() { # scenario out
	$py - "$1" >"$2" <<'PY'
import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))
for w in s.get("workloads", []):
    o = w.get("object") or {}
    if o.get("kind", "Deployment") != "Deployment":
        continue
    n = o.get("name", w["name"])
    print(yaml.safe_dump({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": n, **({"namespace": o["namespace"]} if "namespace" in o else {})},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": n}},
                 "template": {"metadata": {"labels": {"app": n}},
                              "spec": {"containers": [{"name": o.get("container", "main"),
                                                        "image": "registry.example.com/x:1"}]}}}},
        explicit_start=True, sort_keys=False), end="")
PY
}

# One emitted set: kustomize builds it, the validators take what it built,
# lint is clean.
check_set() { # name dir
	if kubectl kustomize "$2" >"$tmp/built.yaml" 2>"$tmp/err"; then ok; else
		bad "$1: kubectl kustomize $2" "$tmp/err"; return; fi
	if [ -n "$validate" ]; then
		if node "$validate" --quiet "$tmp/built.yaml" >"$tmp/err" 2>&1; then ok; else
			bad "$1: the Kubernetes validators on kubectl kustomize's output" "$tmp/err"; fi
	fi
	if "$bin" lint "$2"/* >"$tmp/err" 2>&1; then ok; else
		bad "$1: gpushare lint $2/*" "$tmp/err"; fi
}

# ---- every example and the repro, with and without via: dra ----------------

mkdir -p "$tmp/in"
for f in "$top"/examples/*.yaml "$shared/repro/eks-team.yaml"; do
	n=$(basename "$f" .yaml)
	# The repro names no containers: its workloads' are "main".
	sed 's/^\(  - {name: [^,]*\),/\1, object: {container: main},/' "$f" >"$tmp/in/$n.yaml"
	sed 's/^version: 1$/version: 1\nvia: dra/' "$tmp/in/$n.yaml" >"$tmp/in/$n-dra.yaml"
done
for f in "$tmp"/in/*.yaml; do
	n=$(basename "$f" .yaml)
	man=
	case $n in *-dra) manifests_of "$f" "$tmp/in/$n.man"; man="--manifests $tmp/in/$n.man" ;; esac
	# shellcheck disable=SC2086
	if (cd "$tmp/in" && "$bin" -q plan "$n.yaml" --emit "$tmp/$n" $man) >"$tmp/err" 2>&1
	then ok; check_set "$n" "$tmp/$n"
	else bad "$n: gpushare plan $n.yaml --emit DIR $man" "$tmp/err"; fi
done

# ---- the real manifests ------------------------------------------------------

# sample kind name namespace container gpu via: what the workload file says.
while read -r sample kind name ns ctr gpu via; do
	[ -n "$sample" ] || continue
	src="$shared/samples/pods/$sample"
	for named in yes no; do
		n="$(basename "$sample" .yaml)-$via-$named"
		w="$tmp/$n.yaml"
		obj="kind: $kind, name: $name"
		[ "$ns" = - ] || obj="$obj, namespace: $ns"
		# The container named, or left to the manifest's only one.
		[ $named = yes ] && obj="$obj, container: $ctr"
		reps=2
		[ "$kind" = Pod ] && reps=1
		{
			echo "version: 1"
			echo "cloud: aws"
			[ "$via" = dra ] && echo "via: dra"
			[ "$ns" = - ] || echo "namespace: $ns"
			echo "workloads:"
			echo "  - name: gpu-work"
			echo "    object: {$obj}"
			echo "    replicas: $reps"
			echo "    gpuMemory: 4GiB"
			echo "    compute: 10%"
			echo "    gpus: [$gpu]"
			[ "$gpu" = A100-SXM4-40GB ] && echo "    isolation: fault"
		} >"$w"
		if "$bin" -q plan "$w" --emit "$tmp/$n" --manifests "$src" >"$tmp/err" 2>&1; then
			ok
		else
			bad "$n: gpushare plan $w --emit DIR --manifests $sample" "$tmp/err"
			continue
		fi
		if ! kubectl kustomize "$tmp/$n" >"$tmp/$n.built" 2>"$tmp/err"; then
			bad "$n: kubectl kustomize" "$tmp/err"
			continue
		fi
		ok
		lkind=$(echo "$kind" | tr 'A-Z' 'a-z')
		patch=$(ls "$tmp/$n"/patch-"$lkind"-*-"$name".yaml 2>/dev/null | head -1)
		# The object alone, as kubectl patch takes it.
		$py -c 'import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d.get("kind") == sys.argv[2] and d["metadata"]["name"] == sys.argv[3]:
        print(yaml.safe_dump(d))' "$src" "$kind" "$name" >"$tmp/$n.obj"
		if [ -z "$patch" ]; then
			bad "$n: no patch-$lkind-*-$name.yaml in $(ls "$tmp/$n" | tr '\n' ' ')"
			continue
		fi
		if ! kubectl patch --local -f "$tmp/$n.obj" --type strategic \
		    --patch-file "$patch" -o yaml >"$tmp/$n.patched" 2>"$tmp/err"; then
			bad "$n: kubectl patch --local -f $sample --patch-file $(basename "$patch")" \
			    "$tmp/err"
			continue
		fi
		ok
		if $py "$here/apply_check.py" "$src" "$kind" "$name" "$ctr" "$tmp/$n.built" \
		    "$tmp/$n.patched" >"$tmp/err" 2>&1; then ok; else
			bad "$n: the built $kind against $sample" "$tmp/err"; fi
		if [ -n "$validate" ]; then
			if node "$validate" --quiet "$tmp/$n.built" >"$tmp/err" 2>&1; then ok; else
				bad "$n: the Kubernetes validators on the built objects" "$tmp/err"; fi
		fi
		if "$bin" lint "$tmp/$n"/* >"$tmp/err" 2>&1; then ok; else
			bad "$n: gpushare lint DIR/*" "$tmp/err"; fi
	done
done <<'SAMPLES'
nvidia-docs-time-slicing-verification.deployment.yaml Deployment time-slicing-verification - cuda-sample-vector-add L4 -
openshift-conformance-ts-share.deployment.yaml Deployment ts-share gpu-sharing-test cuda L4 -
k8s-device-plugin-testdata-job-1.yaml Job j-e2e-1 - cuda-container L4 -
nvidia-docs-cuda-vectoradd-mig-2g.10gb.pod.yaml Pod cuda-vectoradd - cuda-vectoradd A100-SXM4-40GB -
nvidia-docs-cuda-vectoradd-mig-single-nodeselector.pod.yaml Pod cuda-vectoradd - vectoradd A100-SXM4-40GB -
openshift-conformance-dra-gpu-test.resourceclaim+pod.yaml Pod dra-gpu-test dra-test gpu-test L4 dra
nvidia-docs-time-slicing-verification.deployment.yaml Deployment time-slicing-verification - cuda-sample-vector-add L4 dra
SAMPLES

echo "apply: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
