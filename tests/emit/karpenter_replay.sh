#!/bin/sh
# karpenter_replay.sh BIN - replays every planned pod against the emitted
# Karpenter NodePools and NodeOverlays (karpenter_replay.py): the examples
# (those on cloud: all also planned on AWS alone), the repro EKS team, the
# fractions fixtures, and random fleets of tests/check/gen.py.
set -u
bin=$1
here=$(dirname "$0")
top=$(cd "$here/../.." && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! $py -c 'import yaml' 2>/dev/null; then
	echo "karpenter replay: python3-yaml is missing (apt-get install -y python3-yaml)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$top"/examples/*.yaml; do
	sed 's/^cloud: all/cloud: aws/' "$f" >"$tmp/aws-$(basename "$f")"
done
set -- "$top"/examples/*.yaml "$tmp"/aws-*.yaml
repro="$top/../shared/repro/eks-team.yaml"
if [ -f "$repro" ]; then
	# The reproduction names no containers: each workload's pods are
	# taken to have one, 'main' (patches must name the one they change),
	# as tests/check/adversary.sh does, block and flow style.
	mkdir -p "$tmp/repro"
	sed -e 's/^\(  - name: .*\)$/\1\n    object: {container: main}/' \
	    -e 's/^\(  - {name: [^,}]*\)/\1, object: {container: main}/' \
	    "$repro" >"$tmp/repro/eks-team.yaml"
	set -- "$@" "$tmp/repro/eks-team.yaml"
fi
# The fractions fixtures (HAMi pods ask gpumem and gpucores too), with a
# container named as above.
mkdir -p "$tmp/frac"
for f in "$top"/tests/cli/fixtures/fractions/*.yaml "$top"/tests/cli/fixtures/fractions-emit/*.yaml; do
	case $(basename "$f") in err-*) continue ;; esac
	sed 's/^\(  - name: .*\)$/\1\n    object: {container: main}/' "$f" >"$tmp/frac/$(basename "$f")"
	set -- "$@" "$tmp/frac/$(basename "$f")"
done
$py "$here/../check/gen.py" --dir "$tmp/cases" 1 "${KARPENTER_CASES:-30}" || exit 1
# Not exec: the shell must stay to remove $tmp on exit.
$py "$here/karpenter_replay.py" "$bin" "$@" "$tmp"/cases/*.yaml
