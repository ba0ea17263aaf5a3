#!/bin/sh
# validate.sh BIN - plans every example and fractions fixture, emits its
# Kubernetes configuration in several variants, and runs the offline
# validators of shared/tools (Kubernetes schemas and API rules, NVIDIA's
# device-plugin and mig-parted parsers) and our fraction_check.py (HAMi,
# DRA capacity, MPS limits) over every file. Skips loudly only where Node is
# missing.
set -u
bin=$1
top=$(pwd)
src="$top/../shared/tools/validate"
dest="$top/build/validate"
pass=0
fail=0

if ! command -v node >/dev/null 2>&1; then
	echo "validate: SKIPPED: node is not installed, so the emitted files were NOT validated" >&2
	exit 0
fi
if [ ! -d "$src" ]; then
	echo "validate: SKIPPED: $src not found, so the emitted files were NOT validated" >&2
	exit 0
fi
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! $py -c 'import yaml' 2>/dev/null; then
	echo "validate: python3-yaml is missing (apt-get install -y python3-yaml)" >&2
	exit 1
fi
# shared/ is read-only: install the validators into build/.
if [ ! -f "$dest/.installed" ] || ! cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
	rm -rf "$dest" && cp -R "$src" "$dest" && chmod -R u+w "$dest" &&
		(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) &&
		touch "$dest/.installed" ||
		{ echo "validate: cannot install the validators (npm ci)" >&2; exit 1; }
fi

# --install-only: what jobs.sh asks first, so that apply.sh, run beside
# this script, finds the validators installed.
[ "${2:-}" = --install-only ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # what command...
	what=$1
	shift
	if out=$("$@" 2>&1); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $what"
		echo "$out" | sed 's/^/    /'
	fi
}

variant() { # name example extra-options...
	name=$1
	ex=$2
	shift 2
	dir="$tmp/$name"
	if ! "$bin" plan "$ex" --emit "$dir" "$@" >/dev/null 2>"$tmp/err"; then
		fail=$((fail + 1))
		echo "FAIL $name: plan --emit"
		sed 's/^/    /' "$tmp/err"
		return
	fi
	# The validators run once over every set's files at the end: each
	# start of node took a second, 150 of them most of this script.
	for f in device-plugin-config mig-config resourceclaims karpenter; do
		[ -f "$dir/$f.yaml" ] && echo "$dir/$f.yaml" >>"$tmp/k8s.list"
	done
	case " $* " in *" --example-deployments "*)
		echo "$dir/workloads.yaml" >>"$tmp/k8s.list" ;;
	esac
	for f in device-plugin-config mig-config gpu-operator-values; do
		[ -f "$dir/$f.yaml" ] && echo "$dir/$f.yaml" >>"$tmp/nvidia.list"
	done
	check "$name/labels.sh (sh -n)" sh -n "$dir/labels.sh"
	# The backends' own rules (HAMi values and pods, DRA capacity, MPS
	# limits) on every set: a set without fractions has none to break.
	check "$name (fractions)" $py "$top/tests/emit/fraction_check.py" "$dir"
}

# A Deployment per workload (container main unless named): DRA claims
# per shared GPU make copies, which need the workloads' manifests.
manifests_of() { # scenario out
	$py - "$1" >"$2" <<'PY'
import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))
for w in s.get("workloads", []):
    o = w.get("object") or {}
    n = o.get("name", w["name"])
    print(yaml.safe_dump({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": n},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": n}},
                 "template": {"metadata": {"labels": {"app": n}},
                              "spec": {"containers": [{"name": o.get("container", "main"),
                                                        "image": "registry.example.com/x:1"}]}}}},
        explicit_start=True, sort_keys=False), end="")
PY
}

for ex in examples/*.yaml; do
	base=$(basename "$ex" .yaml)
	manifests_of "$ex" "$tmp/$base.man"
	variant "$base" "$ex" --karpenter --dra --manifests "$tmp/$base.man"
	variant "$base-examples" "$ex" --karpenter --dra --example-deployments --rename-shared
	# The older DRA shapes, on the examples with MPS and with MIG.
	case $base in mixed-fleet | multi-tenant-mig | multi-gpu)
		variant "$base-v1beta2" "$ex" --dra --dra-api v1beta2 --example-deployments
		variant "$base-v1beta1" "$ex" --dra --dra-api v1beta1 --example-deployments ;;
	esac
	# DRA as the stack, for each supported Kubernetes version.
	for kv in 1.32 1.33 1.34 1.35 1.36 1.37; do
		variant "$base-dra-$kv" "$ex" --dra --kube-version "$kv" --example-deployments
	done
done
# The fractions: HAMi, DRA capacity and MPS limits, each as patches of
# the manifests and as example Deployments, DRA ones on each Kubernetes
# version with consumable capacity; then the checker's own tests.
# (The other fractions fixtures plan no fraction, or the same ones.)
for ex in tests/cli/fixtures/fractions/uneven.yaml tests/cli/fixtures/fractions/uneven-dra.yaml \
	tests/cli/fixtures/fractions/heavy.yaml tests/cli/fixtures/fractions/eks-team.yaml \
	tests/cli/fixtures/fractions-emit/*.yaml; do
	base=frac-$(basename "$ex" .yaml)
	manifests_of "$ex" "$tmp/$base.man"
	variant "$base" "$ex" --karpenter --manifests "$tmp/$base.man"
	variant "$base-examples" "$ex" --example-deployments
	if grep -q '^fractions:.*\(dra\|mps\)' "$ex"; then
		for kv in 1.34 1.36; do
			variant "$base-$kv" "$ex" --kube-version "$kv" --example-deployments
		done
	fi
done
# Each file is validated as before; a failure names its file. (Paths
# are mktemp's and this script's: no spaces.)
check "$(wc -l <"$tmp/k8s.list") files (k8s)" node "$dest/validate-k8s.mjs" --quiet \
	$(cat "$tmp/k8s.list")
check "$(wc -l <"$tmp/nvidia.list") files (nvidia)" $py "$dest/validate-nvidia.py" --quiet \
	$(cat "$tmp/nvidia.list")
check "test_fraction_check.py" $py "$top/tests/emit/test_fraction_check.py" "$bin"
echo "validate: $pass passed, $fail failed ($(wc -l <"$tmp/k8s.list") Kubernetes files," \
	"$(wc -l <"$tmp/nvidia.list") NVIDIA configs)"
[ "$fail" -eq 0 ]
