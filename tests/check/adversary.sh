#!/bin/sh
# adversary.sh - play the adversary (adversary.py) against what `plan --emit` writes.
#
# usage: sh tests/check/adversary.sh GPUSHARE
#
# First the checker's own tests (test_adversary.py, test_fraction_moves.py).
# Then, for every examples/*.yaml and fractions fixture, the issue's reproduction (ADV_REPRO, default
# ../shared/repro/eks-team.yaml beside the tree; skipped with a note when it
# is missing) and ADV_CASES (default 20) random workload files from gen.py
# (seeds 1..N): `gpushare plan FILE --emit DIR --format json`, then
# adversary.py DIR FILE PLAN.json.  A random case that has no plan (exit 1
# naming a workload) passes; any other failure to plan fails.  ADV_SURGE=0
# leaves out the pods of a rolling update's surge (adversary.py --no-surge).
# ADV_FRACTIONS=hami|dra|mps also plays each random fleet with that backend
# allowed (fractions: [...]).
# ADV_REGRESS (default "205 303 1170 1611 2173 3420 5265") adds seeds past
# ADV_CASES that once failed (see the end of this file).
# ADV_PLACEMENT=pinned plays every random fleet (and regression seed) under
# placement: pinned instead of the file's own.
# With ADV_KEEP=DIR each failing input is copied there with its violations.
# A file with placement: pinned is planned with --manifests (a Deployment
# per workload), which its copies need.
# GPUSHARE_PROFILES defaults to this tree's profiles.  Builds nothing.
#
# Ends with one line "N passed, M failed"; exits 1 on any failure.

if [ $# -ne 1 ]; then
	echo "usage: $0 GPUSHARE" >&2
	exit 2
fi
case $1 in
/*) bin=$1 ;;
*) bin=$(pwd)/$1 ;;
esac
if [ ! -x "$bin" ] || [ -d "$bin" ]; then
	echo "$0: $1 is not an executable" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
py=${PYTHON:-python3}
cases=${ADV_CASES:-20}
repro=${ADV_REPRO:-$top/../shared/repro/eks-team.yaml}
case $cases in
'' | *[!0-9]*)
	echo "$0: ADV_CASES must be a number, not '$cases'" >&2
	exit 2
	;;
esac
surge=
[ "${ADV_SURGE:-1}" = 0 ] && surge=--no-surge
if [ -z "${GPUSHARE_PROFILES:-}" ] && [ -d "$top/profiles" ]; then
	GPUSHARE_PROFILES=$top/profiles
	export GPUSHARE_PROFILES
fi
tmo=
if command -v timeout >/dev/null 2>&1; then
	tmo="timeout 60"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpushare-adversary.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

passed=0
failed=0

fail() { # FILE LABEL REASON-FILE
	failed=$((failed + 1))
	echo "FAIL $2"
	sed 's/^/    /' "$3"
	if [ -n "${ADV_KEEP:-}" ]; then
		mkdir -p "$ADV_KEEP"
		b=$(basename "$1" .yaml)
		cp "$1" "$ADV_KEEP/$b.yaml"
		{ echo "# $2"; cat "$3"; } >"$ADV_KEEP/$b.txt"
	fi
}

for t in test_adversary test_fraction_moves; do
	if "$py" "$here/$t.py" >"$tmp/self" 2>&1; then
		passed=$((passed + 1))
	else
		fail "$here/$t.py" "$t.py (the checker's own tests)" "$tmp/self"
	fi
done

# manifests FILE OUT: a Deployment per workload (container main, or its
# object's), which placement: pinned needs for the copies it makes.
manifests() {
	"$py" - "$1" >"$2" <<'PY'
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

# one ID FILE LABEL MUST_PLAN
one() {
	out=$tmp/$1
	why=$tmp/$1.why
	man=
	if grep -q '^placement: pinned' "$2" || ! grep -q 'container' "$2" ||
	   grep -q '^fractions:' "$2"; then
		manifests "$2" "$out.man" && man="--manifests $out.man"
	fi
	$tmo "$bin" plan "$2" --emit "$out" --format json $man >"$out.json" 2>"$out.err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$4" = no ]; then
		for n in $(sed -n 's/^[ ]*-[ ]*name:[ ]*"\{0,1\}\([a-z0-9-]*\).*$/\1/p' "$2"); do
			if grep -q -F "'$n'" "$out.err"; then
				passed=$((passed + 1))
				return
			fi
		done
	fi
	if [ "$rc" -ne 0 ]; then
		{ echo "gpushare plan --emit exited $rc:"; cat "$out.err"; } >"$why"
		fail "$2" "$3" "$why"
		return
	fi
	"$py" "$here/adversary.py" $surge "$out" "$2" "$out.json" >"$why" 2>&1
	if [ $? -eq 0 ]; then
		passed=$((passed + 1))
	else
		fail "$2" "$3" "$why"
	fi
}

for f in "$top"/examples/*.yaml; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .yaml)
	one "example-$b" "$f" "examples/$b.yaml" yes
done
# The fractions' fixtures: HAMi, DRA capacity and MPS limits (not the
# files that must fail to load).
for f in "$top"/tests/cli/fixtures/fractions/*.yaml "$top"/tests/cli/fixtures/fractions-emit/*.yaml; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .yaml)
	case $b in err-*) continue ;; esac
	one "frac-$b" "$f" "${f#"$top"/}" yes
done
# A random fleet as this run plays it: without gen.py's fractions (those
# come only with ADV_FRACTIONS, below), and pinned with ADV_PLACEMENT.
as_asked() {
	sed -i '/^fractions: /d' "$1"
	if [ "${ADV_PLACEMENT:-}" = pinned ]; then
		sed -i -e '/^placement: /d' -e 's/^version: 1$/version: 1\nplacement: pinned/' "$1"
	fi
}

if [ -f "$repro" ]; then
	# The reproduction names no containers: each workload's pods are
	# taken to have one, 'main' (patches must name the one they change).
	sed -e 's/^\(  - name: .*\)$/\1\n    object: {container: main}/' \
	    -e 's/^\(  - {name: [^,}]*\)/\1, object: {container: main}/' "$repro" >"$tmp/repro.yaml"
	one repro "$tmp/repro.yaml" "$(basename "$repro") (the issue's reproduction)" yes
else
	echo "($repro is missing: the reproduction was not checked)"
fi
if [ "$cases" -gt 0 ]; then
	if ! "$py" "$here/gen.py" --dir "$tmp/cases" 1 "$cases"; then
		echo "$0: gen.py failed" >&2
		exit 2
	fi
	# gen.py lists fractions in one file in three; here a fleet allows
	# them only through ADV_FRACTIONS, one backend at a time, since DRA
	# claims for MIG instances (which DRA fractions bring) are not modelled.
	for f in "$tmp"/cases/case-*.yaml; do
		as_asked "$f"
	done
	i=1
	while [ "$i" -le "$cases" ]; do
		one "case-$i" "$tmp/cases/case-$i.yaml" "seed $i (python3 tests/check/gen.py $i)" no
		# ADV_FRACTIONS=hami (or dra, mps): the same fleet allowing
		# fractions of that backend (HAMi on the device plugin's stack).
		if [ -n "${ADV_FRACTIONS:-}" ]; then
			sed -e "s/^version: 1$/version: 1\nfractions: [$ADV_FRACTIONS]/" \
			    -e "$( [ "$ADV_FRACTIONS" = hami ] && echo 's/^via: dra$/via: device-plugin/')" \
			    "$tmp/cases/case-$i.yaml" >"$tmp/cases/frac-$i.yaml"
			one "frac-$i" "$tmp/cases/frac-$i.yaml" \
			    "seed $i with fractions: [$ADV_FRACTIONS]" no
		fi
		i=$((i + 1))
	done
fi

# Seeds past ADV_CASES whose plans an adversary once broke, each checked
# every run (ADV_REGRESS, space-separated; empty: none):
#   205: two GPUs planned with one replica each of a 59 % workload on a
#        time-sliced node, whose config gives every GPU two slots;
#   303: a spread: gpu replica in a time-sliced MIG instance, whose
#        slots took three replicas of its workload;
#   1170: a workload on a MIG instance and on whole GPUs under robust
#        placement, which the emitter refuses without --manifests;
#   1611: pinned copies of a spread: gpu workload asking 1g.20gb and
#        2g.20gb on one node, whose first GPU held both profiles;
#   2173: a 3g.40gb planned alone beside one time-sliced three ways,
#        whose node count gave it three slots too;
#   3420: two replicas of 40 GiB on GPUs of MPS x2, whose split capped
#        each client at 40 GiB but held both on one 80 GB A100;
#   5265: the optimiser's program, on which CBC crashed (a SIGSEGV).
for i in ${ADV_REGRESS-205 303 1170 1611 2173 3420 5265}; do
	[ "$i" -gt "$cases" ] || continue
	if ! "$py" "$here/gen.py" "$i" "$tmp/regress-$i.yaml"; then
		echo "$0: gen.py $i failed" >&2
		exit 2
	fi
	as_asked "$tmp/regress-$i.yaml"
	one "regress-$i" "$tmp/regress-$i.yaml" "seed $i (python3 tests/check/gen.py $i)" no
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
