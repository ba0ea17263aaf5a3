#!/bin/sh
# run.sh - check gpushare's plans with the independent feasibility checker.
#
# usage: sh tests/check/run.sh GPUSHARE
#
# First the checker's own tests (test_feasible.py).  Then plans every
# examples/*.yaml (each must plan: exit 0) and CHECK_CASES
# (default 200) random workload files from gen.py with seeds 1..N, and runs
# feasible.py on each plan with its workload file.  A random case may also
# end with exit status 1 when standard error names one of its workloads
# ("no plan").  A crash, a sanitizer report, any other exit status or a
# plan that breaks a rule is a failure.  With CHECK_KEEP=DIR, each failing
# workload file is copied to DIR/NAME.yaml with its diagnosis in
# DIR/NAME.txt.  GPUSHARE_PROFILES defaults to this tree's profiles.
# Builds nothing.
#
# Says how many passed plans have fraction GPUs (rule 18) and how many
# such GPUs with replicas were checked, then ends with one line
# "N passed, M failed"; exits 1 on any failure.

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
cases=${CHECK_CASES:-200}
py=${PYTHON:-python3}
case $cases in
'' | *[!0-9]*)
	echo "$0: CHECK_CASES must be a number, not '$cases'" >&2
	exit 2
	;;
esac
# The profiles of this tree unless told otherwise (gpushare itself finds
# them only when run from the tree).
if [ -z "${GPUSHARE_PROFILES:-}" ] && [ -d "$top/profiles" ]; then
	GPUSHARE_PROFILES=$top/profiles
	export GPUSHARE_PROFILES
fi
tmo=
if command -v timeout >/dev/null 2>&1; then
	tmo="timeout 30"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpushare-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# The catalog, once.
if ! "$bin" gpus --format json >"$tmp/gpus.json" 2>"$tmp/err" ||
	! "$bin" instances --format json >"$tmp/instances.json" 2>>"$tmp/err"; then
	echo "$0: cannot read the catalog:" >&2
	cat "$tmp/err" >&2
	exit 2
fi

passed=0
failed=0
fplans=0 # passed plans with fraction GPUs, and how many they have
fgpus=0
noplan=0
mkdir "$tmp/plans" || exit 2
: >"$tmp/list"  # TARGET PLAN<TAB>FILE for feasible.py --batch
: >"$tmp/todo"  # ID<TAB>FILE<TAB>LABEL of the cases whose plan is checked

fail() { # FILE LABEL REASON-FILE
	failed=$((failed + 1))
	echo "FAIL $2"
	sed 's/^/    /' "$3"
	if [ -n "${CHECK_KEEP:-}" ]; then
		mkdir -p "$CHECK_KEEP"
		b=$(basename "$1" .yaml)
		cp "$1" "$CHECK_KEEP/$b.yaml"
		{ echo "# $2"; cat "$3"; } >"$CHECK_KEEP/$b.txt"
	fi
}

# plan ID FILE LABEL MUST_PLAN: runs gpushare; a plan goes on the list.
plan() {
	id=$1 f=$2
	why=$tmp/plans/$id.why
	$tmo "$bin" plan "$f" --format json >"$tmp/plans/$id.json" 2>"$tmp/plans/$id.err"
	rc=$?
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/plans/$id.err"; then
		{ echo "sanitizer report (exit $rc):"; cat "$tmp/plans/$id.err"; } >"$why"
		fail "$f" "$3" "$why"
		return
	fi
	if [ "$rc" -eq 0 ]; then
		t=$(sed -n 's/^targetUtilization:[ ]*"\{0,1\}\([0-9.]*\)%.*$/\1/p' "$f" | head -n 1)
		printf '%s %s\t%s\n' "${t:-90}" "$tmp/plans/$id.json" "$f" >>"$tmp/list"
		printf '%s\t%s\t%s\n' "$id" "$f" "$3" >>"$tmp/todo"
		return
	fi
	if [ "$rc" -eq 1 ] && [ "$4" = no ]; then
		for n in $(sed -n 's/^[ ]*-[ ]*name:[ ]*"\{0,1\}\([a-z0-9-]*\).*$/\1/p' "$f"); do
			if grep -q -F "'$n'" "$tmp/plans/$id.err"; then
				passed=$((passed + 1))
				noplan=$((noplan + 1))
				return
			fi
		done
		{ echo "exit 1 without naming a workload:"; cat "$tmp/plans/$id.err"; } >"$why"
		fail "$f" "$3" "$why"
		return
	fi
	{ echo "gpushare plan exited $rc:"; cat "$tmp/plans/$id.err"; } >"$why"
	fail "$f" "$3" "$why"
}

# First the checker's own tests: broken fraction plans it must reject.
if "$py" "$here/test_feasible.py" "$bin" >"$tmp/self" 2>&1; then
	passed=$((passed + 1))
else
	fail "$here/test_feasible.py" "test_feasible.py (the checker's own tests)" "$tmp/self"
fi

for f in "$top"/examples/*.yaml; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .yaml)
	plan "example-$b" "$f" "examples/$b.yaml" yes
done

if [ "$cases" -gt 0 ]; then
	if ! "$py" "$here/gen.py" --dir "$tmp/cases" 1 "$cases"; then
		echo "$0: gen.py failed" >&2
		exit 2
	fi
	i=1
	while [ "$i" -le "$cases" ]; do
		plan "case-$i" "$tmp/cases/case-$i.yaml" \
			"seed $i (python3 tests/check/gen.py $i)" no
		i=$((i + 1))
	done
fi

# One Python start checks every plan: each gets PLAN.json.check.
if [ -s "$tmp/list" ]; then
	"$py" "$here/feasible.py" --batch "$tmp/list" "$tmp/gpus.json" \
		"$tmp/instances.json"
	if [ $? -ge 2 ]; then
		echo "$0: feasible.py could not check the plans" >&2
		exit 2
	fi
fi
tab=$(printf '\t')
while IFS="$tab" read -r id f label; do
	r=$tmp/plans/$id.json.check
	if [ -f "$r" ] && head -n 1 "$r" | grep -q '^ok: '; then
		passed=$((passed + 1))
		k=$(sed -n 's/^ok: .* (\([0-9]*\) fraction GPUs)$/\1/p' "$r")
		if [ -n "$k" ]; then
			fplans=$((fplans + 1))
			fgpus=$((fgpus + k))
		fi
	else
		[ -f "$r" ] || echo "feasible.py gave no result" >"$r"
		fail "$f" "$label" "$r"
	fi
done <"$tmp/todo"

[ "$fplans" -eq 0 ] ||
	echo "($fplans of the passed plans have fraction GPUs: $fgpus checked)"
[ "$noplan" -eq 0 ] ||
	echo "($noplan of the passed cases have no plan: exit 1 naming a workload)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
