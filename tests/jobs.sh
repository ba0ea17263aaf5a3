#!/bin/sh
# jobs.sh KIND... - the tests of `make check` as independent jobs, two at
# a time, the longest first; KIND is san (every test under ASan and
# UBSan), vg (those chosen for valgrind) or fuzz (each libFuzzer harness
# for three seconds). The Makefile passes what it built: UNIT_BIN,
# VUNIT_BIN, FUZZ_BIN, SAN_BIN, VG_BIN and VALGRIND.
#
# Why a pool: CI has a 20-minute budget on a two-core machine. Two fixed
# lanes, then valgrind, then the fuzzers left one core idle for minutes
# wherever a lane ended early; a pool fed longest first (tests/jobs.costs,
# seconds measured here) keeps both busy to the end.
#
# Each job's output goes to its own log, printed in the list's order once
# all have ended, each after a line "== LABEL: N s" (or "failed", with its
# status). After a failure no new job starts, so a red run ends early.
# The status is 1 when any job failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

if [ "${1:-}" = --run ]; then
	# --run DIR ID: one job, from xargs.
	dir=$2
	id=$3
	if [ -e "$dir/failed" ]; then
		echo skipped >"$dir/$id.rc"
		exit 0
	fi
	t0=$(date +%s)
	(cd "$top" && sh "$dir/$id.cmd") >"$dir/$id.log" 2>&1
	rc=$?
	echo "$rc $(($(date +%s) - t0))" >"$dir/$id.rc"
	[ $rc -eq 0 ] || : >"$dir/failed"
	exit 0
fi

jobs=$(mktemp -d "${TMPDIR:-/tmp}/gpushare-jobs.XXXXXX") || exit 2
trap 'rm -rf "$jobs"' EXIT
trap 'exit 130' INT TERM HUP
n=0

# job LABEL COMMAND [SECONDS]: a job, run by sh from the top of the
# tree; how long it takes, if not given, from jobs.costs (5 s if new).
job() {
	n=$((n + 1))
	printf '%s\n' "$2" >"$jobs/$n.cmd"
	printf '%s\n' "$1" >"$jobs/$n.label"
	cost=${3:-$(awk -v l="$1" '$1 == l { print $2; exit }' "$here/jobs.costs")}
	printf '%s %s\n' "${cost:-5}" "$n" >>"$jobs/order"
}

# Seconds of the valgrind run of KIND NAME (tests/valgrind/costs).
vg_cost() {
	awk -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3; exit }' \
		"$here/valgrind/costs"
}

# The golden cases NAMEs in PARTS jobs of about equal length: the
# slowest first, dealt out in turn. COSTS lists "NAME SECONDS".
goldens() { # LABEL PARTS BIN WRAP COSTS NAME...
	label=$1 parts=$2 bin=$3 wrap=$4 costs=$5
	shift 5
	printf '%s\n' "$@" | awk 'NR == FNR { c[$1] = $2; next }
		{ print (($1 in c) ? c[$1] : 1), $1 }' "$costs" - |
		sort -k1,1nr -k2 >"$jobs/dealt"
	p=0
	while [ $p -lt "$parts" ]; do
		part=$(awk -v p=$p -v k="$parts" '(NR - 1) % k == p' "$jobs/dealt")
		# An empty part would be every case (run.sh with no NAME).
		[ -n "$part" ] || break
		names=$(printf '%s\n' "$part" | cut -d' ' -f2 | tr '\n' ' ')
		secs=$(printf '%s\n' "$part" | awk '{ s += $1 } END { printf "%d", s + 1 }')
		job "$label-$p" "GS_WRAP='$wrap' sh tests/cli/run.sh $bin $names" "$secs"
		p=$((p + 1))
	done
}

cases=$(cd "$top/tests/cli/cases" && ls ./*.cmd | sed 's|^\./||; s/\.cmd$//')

# The jobs that plan fleets by the hundred to check what the plans say
# (sums, feasibility, validators) run ASan without its quarantine. A
# freed block then serves the next malloc, where the quarantine hands out
# fresh pages; on a VM where each page fault is dear, the forked CBC
# children spent most of their time faulting (test_showback: 103 s with
# the quarantine, 29 s without). Overflows, leaks and undefined behaviour
# are still caught there. A use after free is left to the goldens, the
# other unit tests and valgrind, which keep the default.
lean='ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"'

san() {
	b=$SAN_BIN
	for t in $UNIT_BIN; do
		case $(basename "$t") in
		test_showback) pre="$lean " ;;
		*) pre= ;;
		esac
		job "$(basename "$t")" "cd tests && ${pre}GS_TOP=.. ../$t"
	done
	# Under ASan a case takes about an eighth of its valgrind time.
	awk '$1 == "case" { print $2, $3 / 8 }' "$here/valgrind/costs" >"$jobs/san-costs"
	# shellcheck disable=SC2086
	goldens goldens 2 "$b" "" "$jobs/san-costs" $cases
	job repl "sh tests/repl/run.sh $b"
	job labels "sh tests/emit/labels.sh $b"
	job prometheus "sh tests/live/prometheus.sh $b"
	job kubectl "sh tests/live/kubectl.sh $b"
	job hardening "sh tests/hardening/run.sh $b"
	job cost-sum "python3 tests/cost/sum.py $b"
	job bench-smoke "sh tests/bench/smoke.sh $b"
	job completion "sh tests/completion/run.sh $b"
	job man-lint "sh tests/man/lint.sh"
	job man-options "sh tests/man/options.sh $b"
	job man-examples "sh tests/man/examples.sh $b"
	job valgrind-choose "python3 tests/valgrind/test_choose.py"
	job adversary "$lean ADV_CASES=20 ADV_FRACTIONS=hami sh tests/check/adversary.sh $b"
	job validate "$lean sh tests/emit/validate.sh $b"
	job karpenter-replay "$lean sh tests/emit/karpenter_replay.sh $b"
	# 160 fleets, not the script's 200: CI's budget (126 s at 200).
	job feasible "$lean CHECK_CASES=160 sh tests/check/run.sh $b"
	job report "$lean sh tests/report/run.sh $b"
	job apply "$lean sh tests/emit/apply.sh $b"
	job dist "sh tests/dist.sh"
}

vg() {
	for t in $VUNIT_BIN; do
		job "vg-$(basename "$t")" "cd tests && GS_TOP=.. $VALGRIND ../$t >/dev/null" \
			"$(vg_cost unit "$(basename "$t")")"
	done
	awk '$1 == "case" { print $2, $3 }' "$here/valgrind/costs" >"$jobs/vg-costs"
	kept=$(printf '%s\n' $cases | grep -vxF -f "$top/tests/valgrind/skip-cases")
	# shellcheck disable=SC2086
	goldens vg-goldens 6 "$VG_BIN" "$VALGRIND" "$jobs/vg-costs" $kept
}

fuzz() {
	for h in $FUZZ_BIN; do
		job "$(basename "$h")" "sh tests/fuzz/run.sh 3 $h"
	done
}

for kind in "$@"; do
	case $kind in
	san | vg | fuzz) $kind ;;
	*)
		echo "jobs.sh: unknown kind '$kind' (san, vg or fuzz)" >&2
		exit 2
		;;
	esac
done

# apply.sh uses the validators validate.sh installs: installed first.
case " $* " in
*" san "*) sh tests/emit/validate.sh "$SAN_BIN" --install-only || exit 1 ;;
esac

t0=$(date +%s)
sort -k1,1nr -k2,2n "$jobs/order" | cut -d' ' -f2 |
	xargs -P "${CHECK_JOBS:-2}" -n 1 sh "$here/jobs.sh" --run "$jobs"
status=0
failed=
i=1
while [ $i -le $n ]; do
	label=$(cat "$jobs/$i.label")
	rc=lost
	[ -f "$jobs/$i.rc" ] && read -r rc secs <"$jobs/$i.rc"
	case $rc in
	0) echo "== $label: $secs s" ;;
	skipped) echo "== $label: not run (a job failed)" ;;
	*)
		echo "== $label: failed (status $rc)"
		failed="$failed $label"
		status=1
		;;
	esac
	[ -f "$jobs/$i.log" ] && cat "$jobs/$i.log"
	i=$((i + 1))
done
echo "jobs: $n in $(($(date +%s) - t0)) s, ${CHECK_JOBS:-2} at a time"
[ -z "$failed" ] || echo "jobs: failed:$failed" >&2
exit $status
