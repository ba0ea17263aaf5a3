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

lane_a() {
	set -e
	for t in $units; do
		echo "== $t"
		(cd tests && GS_TOP=.. "../$t")
	done
	sh tests/cli/run.sh "$bin"
	sh tests/repl/run.sh "$bin"
	sh tests/emit/labels.sh "$bin"
	sh tests/live/prometheus.sh "$bin"
	sh tests/live/kubectl.sh "$bin"
	CHECK_CASES=200 sh tests/check/run.sh "$bin"
	sh tests/hardening/run.sh "$bin"
	ADV_CASES=20 ADV_FRACTIONS=hami sh tests/check/adversary.sh "$bin"
	sh tests/report/run.sh "$bin"
	python3 tests/cost/sum.py "$bin"
	sh tests/bench/smoke.sh "$bin"
	sh tests/completion/run.sh "$bin"
	sh tests/man/lint.sh
	sh tests/man/options.sh "$bin"
	sh tests/man/examples.sh "$bin"
	sh tests/emit/apply.sh "$bin"
}

lane_b() {
	set -e
	sh tests/emit/validate.sh "$bin"
	sh tests/emit/karpenter_replay.sh "$bin"
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
