#!/bin/sh
# labels.sh BIN - runs the emitted labels.sh against a fake kubectl (a stub
# on PATH that answers `get node NAME -o jsonpath=...` from a table of
# nodes and logs every call): it labels every node when all are as
# planned, and exits 1 without a single `label` call when a NODE_n is
# unset, two are equal, a node is missing, or its instance type or GPU is
# not the planned one. Also shellcheck on the script, where installed.
# shellcheck disable=SC2086 # $good is a list of VAR=VALUE words
set -u
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/gpushare-labels.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

mkdir "$work/bin"
# The fake kubectl: nodes.txt lines are "NAME TYPE PRODUCT" ("-": no label).
cat >"$work/bin/kubectl" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_DIR/calls"
case "$1 $2" in
"get node")
	line=$(grep "^$3 " "$FAKE_DIR/nodes.txt") || {
		echo "Error from server (NotFound): nodes \"$3\" not found" >&2
		exit 1
	}
	set -- $line "$5"
	case "$4" in
	*instance-type*) v=$2 ;;
	*gpu\\.product*) v=$3 ;;
	*) echo "fake kubectl: unexpected $4" >&2; exit 2 ;;
	esac
	[ "$v" = - ] || printf '%s' "$v"
	;;
"label node") ;;
*) echo "fake kubectl: unexpected $*" >&2; exit 2 ;;
esac
EOF
chmod +x "$work/bin/kubectl"

"$bin" emit labels examples/mixed-fleet.yaml >"$work/fleet.sh" || exit 2
"$bin" emit labels examples/multi-tenant-mig.yaml >"$work/mig.sh" || exit 2
"$bin" emit labels tests/cli/fixtures/names/workloads.yaml \
	--profiles profiles:tests/cli/fixtures/names >"$work/names.sh" || exit 2

# run NAME SCRIPT WANT_RC WANT_LABELS WANT_ERR [VAR=VALUE...]: runs SCRIPT with
# the env given; checks its exit status, how many `label` calls it made and
# that stderr holds WANT_ERR (is empty for "").
run() {
	name=$1 script=$2 want_rc=$3 want_labels=$4 want_err=$5
	shift 5
	: >"$work/calls"
	env -i PATH="$work/bin:/usr/bin:/bin" FAKE_DIR="$work" "$@" sh "$script" \
		>"$work/out" 2>"$work/err"
	rc=$?
	labels=$(grep -c '^label node' "$work/calls")
	if [ "$rc" = "$want_rc" ] && [ "$labels" = "$want_labels" ] &&
		{ if [ -n "$want_err" ]; then grep -qF -- "$want_err" "$work/err"; else
			[ ! -s "$work/err" ]; fi; }; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: exit $rc (want $want_rc), $labels label calls (want $want_labels)"
		sed 's/^/  stderr: /' "$work/err"
	fi
}

cat >"$work/nodes.txt" <<'EOF'
l4-a g6.xlarge NVIDIA-L4
l40s-a g6e.xlarge NVIDIA-L40S
l40s-b g6e.xlarge NVIDIA-L40S-SHARED
t4-a g4dn.xlarge Tesla-T4
t4-b g4dn.xlarge Tesla-T4-SHARED
t4-c g4dn.xlarge Tesla-T4
t4-d g4dn.xlarge Tesla-T4
t4-e g4dn.xlarge Tesla-T4
t4-f g4dn.xlarge Tesla-T4
t4-g g4dn.xlarge g4dn.xlarge
t4-h c5.xlarge Tesla-T4
t4-i g4dn.xlarge -
t4-j - Tesla-T4
a100 a2-highgpu-4g A100-SXM4-40GB-MIG-1g.5gb
a100-new a2-highgpu-4g NVIDIA-A100-SXM4-40GB
a100-80 a2-highgpu-4g NVIDIA-A100-SXM4-80GB
rack-40 rack-a100-mig-long-name-of-our-datacenter-building-one-40gb NVIDIA-A100-SXM4-40GB
rack-80 rack-a100-mig-long-name-of-our-datacenter-building-one-80gb NVIDIA-A100-SXM4-80GB
own-t4 - Tesla-T4
EOF
good="NODE_1=l4-a NODE_2=l40s-a NODE_3=l40s-b NODE_4=t4-a NODE_5=t4-b NODE_6=t4-c"
good="$good NODE_7=t4-d NODE_8=t4-e"
{
	run all-good "$work/fleet.sh" 0 8 "" $good
	run node-unset "$work/fleet.sh" 1 0 "labels.sh: NODE_8 is not set: the name of a node of type g4dn.xlarge" \
		NODE_1=l4-a NODE_2=l40s-a NODE_3=l40s-b NODE_4=t4-a NODE_5=t4-b NODE_6=t4-c NODE_7=t4-d
	run node-empty "$work/fleet.sh" 1 0 "NODE_3 is not set" $good NODE_3=
	run two-equal "$work/fleet.sh" 1 0 "node 't4-b' is given as two NODE_<n>" $good NODE_8=t4-b
	run no-such-node "$work/fleet.sh" 1 0 "NODE_5: cannot read node 'nope'" $good NODE_5=nope
	run wrong-type "$work/fleet.sh" 1 0 "NODE_6: node 't4-h' is a c5.xlarge, not a g4dn.xlarge as planned" \
		$good NODE_6=t4-h
	run swapped "$work/fleet.sh" 1 0 "NODE_1: node 't4-g' is a g4dn.xlarge, not a g6.xlarge as planned" \
		$good NODE_1=t4-g
	run wrong-product "$work/fleet.sh" 1 0 "NODE_7: node 't4-g' has GPU g4dn.xlarge, not the planned T4" \
		$good NODE_7=t4-g
	run no-product "$work/fleet.sh" 1 0 "NODE_8: node 't4-i' has no nvidia.com/gpu.product label" \
		$good NODE_8=t4-i
	run no-type "$work/fleet.sh" 1 0 "NODE_8: node 't4-j' has no node.kubernetes.io/instance-type label" \
		$good NODE_8=t4-j
}
# The MIG single strategy's product, and a newer driver's "NVIDIA-" name.
run mig-single "$work/mig.sh" 0 1 "" NODE_1=a100
run mig-none "$work/mig.sh" 0 1 "" NODE_1=a100-new
run mig-80gb "$work/mig.sh" 1 0 "has GPU NVIDIA-A100-SXM4-80GB, not the planned A100-SXM4-40GB" \
	NODE_1=a100-80
# A type of one's own that no label can name ("+++"): only the GPU is checked.
run own-type "$work/names.sh" 0 3 "" NODE_1=rack-40 NODE_2=rack-80 NODE_3=own-t4
run own-type-gpu "$work/names.sh" 1 0 \
	"NODE_3: node 'a100' has GPU A100-SXM4-40GB-MIG-1g.5gb, not the planned T4" \
	NODE_1=rack-40 NODE_2=rack-80 NODE_3=a100
# What it labels: every label of the node in one call.
run all-good-calls "$work/fleet.sh" 0 8 "" $good
if ! grep -qx "label node t4-e nvidia.com/device-plugin.config=g4dn.xlarge-ts3 gpushare.io/pool=g4dn.xlarge-ts3 --overwrite" \
	"$work/calls"; then
	fail=$((fail + 1))
	echo "FAIL label-call: NODE_8's labels"
	cat "$work/calls"
fi
run mig-calls "$work/mig.sh" 0 1 "" NODE_1=a100
if ! grep -qx "label node a100 nvidia.com/device-plugin.config=a2-highgpu-4g-mig nvidia.com/mig.config=gpushare-a2-highgpu-4g gpushare.io/pool=a2-highgpu-4g-mig --overwrite" \
	"$work/calls"; then
	fail=$((fail + 1))
	echo "FAIL label-call: the MIG node's labels"
	cat "$work/calls"
fi

if command -v shellcheck >/dev/null 2>&1; then
	for s in "$work/fleet.sh" "$work/mig.sh"; do
		if shellcheck -s sh "$s"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL shellcheck $s"
		fi
	done
else
	echo "labels: shellcheck is not installed: the scripts were not linted" >&2
fi
echo "labels: $pass passed, $fail failed"
[ "$fail" = 0 ]
