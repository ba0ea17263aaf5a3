#!/bin/sh
# run.sh SECONDS BIN... - runs each libFuzzer harness for SECONDS, after
# replaying its regression inputs, from seeds built out of the examples and
# test fixtures. Prints executions and coverage per harness.
set -u
secs=$1
shift
top=$(pwd)
status=0
seeds() { # harness dir
	case $1 in
	fuzz_workloads)
		cp examples/*.yaml tests/cli/fixtures/workloads/*.yaml "$2" 2>/dev/null ;;
	fuzz_profiles)
		# The first byte picks a GPU (even) or an instance file (odd).
		for f in profiles/gpus/*.yaml; do
			{ printf '\000'; cat "$f"; } > "$2/gpu-$(basename "$f")"
		done
		for f in profiles/instances/*.yaml; do
			{ printf '\001'; cat "$f"; } > "$2/inst-$(basename "$f")"
		done ;;
	fuzz_manifests)
		cp tests/fixtures/manifests/*.yaml tests/fixtures/manifests/*.json "$2" 2>/dev/null ;;
	fuzz_lint)
		cp tests/fixtures/lint/*.yaml "$2" 2>/dev/null
		for f in tests/fixtures/lint/hami/*/*.yaml; do
			cp "$f" "$2/hami-$(basename "$(dirname "$f")")-$(basename "$f")"
		done
		cp ../shared/samples/configs/*/*.yaml "$2" 2>/dev/null ;;
	fuzz_prom)
		for f in tests/fixtures/import/*.prom tests/fixtures/import/samples/*.prom; do
			[ -f "$f" ] && { printf '\000'; cat "$f"; } > "$2/text-$(basename "$f")"
		done
		for f in tests/fixtures/import/*.json; do
			[ -f "$f" ] && { printf '\001'; cat "$f"; } > "$2/json-$(basename "$f")"
		done ;;
	fuzz_kube_scan)
		# The first byte picks the size of the pieces the list comes in.
		for f in tests/fixtures/import/*.json tests/fixtures/import/pods.yaml \
		    tests/fixtures/import/errors/*.json; do
			[ -f "$f" ] && { printf '\002'; cat "$f"; } > "$2/$(basename "$f")"
		done ;;
	fuzz_import)
		for f in tests/fixtures/import/*nodes*.json; do
			[ -f "$f" ] && { printf '\000'; cat "$f"; } > "$2/n-$(basename "$f")"
		done
		for f in tests/fixtures/import/*pods*.json; do
			[ -f "$f" ] && { printf '\001'; cat "$f"; } > "$2/p-$(basename "$f")"
		done ;;
	fuzz_cost)
		# Even: the claims; odd: the pods (fuzz_cost.c).
		{ printf '\000'; cat tests/fixtures/cost/dra-claims.json; } > "$2/claims.json"
		{ printf '\001'; cat tests/fixtures/cost/dra-pods.json; } > "$2/pods.json"
		{ printf '\002'; cat tests/fixtures/cost/claims-array.json; } > "$2/array.json" ;;
	*)
		[ -d "tests/fuzz/seeds/$1" ] && cp tests/fuzz/seeds/"$1"/* "$2" 2>/dev/null ;;
	esac
	return 0
}
for bin; do
	name=$(basename "$bin")
	corpus="build/fuzz/corpus/$name"
	seed="build/fuzz/seeds/$name"
	# Harnesses that need files make them under TMPDIR: here, in build/.
	TMPDIR="$top/build/fuzz/tmp"
	export TMPDIR
	mkdir -p "$corpus" "$seed" "$TMPDIR"
	seeds "$name" "$seed"
	regress="tests/fuzz/regressions/$name"
	if [ -d "$regress" ] && [ -n "$(ls "$regress")" ]; then
		if ! GS_PROFILES="$top/profiles" "$bin" "$regress"/* >build/fuzz/$name.regress.log 2>&1; then
			echo "fuzz: $name: a regression input fails again:"
			tail -20 "build/fuzz/$name.regress.log"
			status=1
			continue
		fi
	fi
	dict=""
	[ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
	[ -z "$dict" ] && dict="-dict=tests/fuzz/yaml.dict"
	if GS_PROFILES="$top/profiles" "$bin" -max_total_time="$secs" -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "$dict" \
	    -artifact_prefix="build/fuzz/$name-" "$corpus" "$seed" >"build/fuzz/$name.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/fuzz/$name.log")
		cov=$(grep -o 'cov: [0-9]*' "build/fuzz/$name.log" | tail -1)
		echo "fuzz: $name: $runs executions in ${secs}s, $cov, no crash"
	else
		echo "fuzz: $name: CRASH; the input is build/fuzz/$name-*; log:"
		grep -A30 'ERROR\|SUMMARY\|panic\|deadly' "build/fuzz/$name.log" | head -40
		status=1
	fi
done
exit $status
