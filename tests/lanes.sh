#!/bin/sh
# lanes.sh BIN UNIT... - the test scripts of `make check-run`, in two lanes
# at once: each is one core's work, and the machine CI runs on has two.
# Each lane stops at its first failure; their logs are printed in order
# afterwards, and the status is that of the lanes together.
set -u
bin=$1
shift
units=$*
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# Runs a step and says how long it took: CI has a 20-minute budget, and
# this is where its time is found.
step() {
	t0=$(date +%s)
	"$@" || return
	echo "lanes: $(( $(date +%s) - t0 )) s: $*"
}

units() {
	for t in $units; do
		echo "== $t"
		(cd tests && GS_TOP=.. "../$t") || return
	done
}

lane_a() {
	set -e
	step units
	step sh tests/cli/run.sh "$bin"
	step sh tests/repl/run.sh "$bin"
	step sh tests/emit/labels.sh "$bin"
	step sh tests/live/prometheus.sh "$bin"
	step sh tests/live/kubectl.sh "$bin"
	step sh tests/hardening/run.sh "$bin"
	step python3 tests/cost/sum.py "$bin"
	step sh tests/bench/smoke.sh "$bin"
	step sh tests/completion/run.sh "$bin"
	step sh tests/man/lint.sh
	step sh tests/man/options.sh "$bin"
	step sh tests/man/examples.sh "$bin"
	step python3 tests/valgrind/test_choose.py
	step env ADV_CASES=20 ADV_FRACTIONS=hami sh tests/check/adversary.sh "$bin"
}

# As measured in CI on a two-core machine (the first lane's unit tests
# 251 s, its goldens 139 s, the hostile fleets 87 s; here the validators
# 107 s, since they start node once rather than per file; the replay 157
# s, the feasibility check 141 s, the reports 49 s), the second lane ended
# 136 s before the first; the apply check (63 s) moved here to even them.
# With the planner's repair the CI came within a minute of its 20, so the
# feasibility check draws 160 fleets, not 200 (126 s at 200).
lane_b() {
	set -e
	step sh tests/emit/validate.sh "$bin"
	step sh tests/emit/karpenter_replay.sh "$bin"
	step env CHECK_CASES=160 sh tests/check/run.sh "$bin"
	step sh tests/report/run.sh "$bin"
	step sh tests/emit/apply.sh "$bin"
}

# apply.sh uses the validators validate.sh installs: installed first.
sh tests/emit/validate.sh "$bin" --install-only || exit 1

(lane_a) > "$logs/a" 2>&1 &
pid=$!
(lane_b) > "$logs/b" 2>&1
rc_b=$?
wait $pid
rc_a=$?
cat "$logs/a" "$logs/b"
[ $rc_a -eq 0 ] || echo "lanes: the first lane failed (status $rc_a)" >&2
[ $rc_b -eq 0 ] || echo "lanes: the second lane failed (status $rc_b)" >&2
[ $rc_a -eq 0 ] && [ $rc_b -eq 0 ]
