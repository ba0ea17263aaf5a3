#!/bin/sh
# The bench scripts' smoke test (make check): fleet.py writes the same bytes
# for the same seed, and quality.py plans three small fleets and computes
# their FFD baseline, without optimum.py, and fails when optimum.py
# cannot run. Usage: smoke.sh GPUSHARE
set -eu
bin=${1:?usage: smoke.sh GPUSHARE}
dir=build/bench/smoke
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "bench smoke: $*" >&2; exit 1; }

# Determinism: one pinned digest per class (a change of the generator or of
# Python's seeding shows here first), and two runs give the same bytes. The
# sidecar names the formulation optimum.py takes: varied's is hetero's,
# migx's is mig's.
for want in "ts 1108170148b931e9 ts" "hetero 005d80d65096097c hetero" \
    "mig 04464937d15774e2 mig" "mixed fd0e126f1cd4ca5a mixed" \
    "varied 941aa58fb5a5fd96 hetero" "migx 2054191b761d027f mig"; do
	set -- $want
	python3 tests/bench/fleet.py "$1" 20 0 "$dir/$1.yaml"
	got=$(sha256sum "$dir/$1.yaml" | cut -c1-16)
	[ "$got" = "$2" ] || fail "fleet.py $1 20 0: sha256 $got, expected $2"
	[ "$(cat "$dir/$1.yaml.meta.json")" = "{\"class\": \"$3\"}" ] || fail "$1: meta.json"
done
python3 tests/bench/fleet.py mixed 1000 0 "$dir/a.yaml"
python3 tests/bench/fleet.py mixed 1000 0 "$dir/b.yaml"
cmp -s "$dir/a.yaml" "$dir/b.yaml" || fail "fleet.py mixed 1000 0: two runs differ"

python3 tests/bench/quality.py --no-optimum --sizes 20 --seeds 1 --gpushare "$bin" \
    --dir "$dir/q" >"$dir/quality.out" || fail "quality.py exited $? ($dir/quality.out)"
rows=$(grep -c '^\(ts\|hetero\|mig\) *20 *0 ' "$dir/quality.out" || true)
[ "$rows" = 3 ] || fail "quality.py printed $rows fleet rows, expected 3"
grep -q '^optimum: NOT RUN' "$dir/quality.out" || fail "quality.py ran optimum.py"
# FFD's figures for these fleets, worked out by the rules of README.md.
for want in "ts 11.0660" "hetero 8.4160" "mig 73.4677"; do
	set -- $want
	got=$(awk -v c="$1" '$1 == c { print $7 }' "$dir/quality.out")
	[ "$got" = "$2" ] || fail "FFD of $1 20 0: $got, expected $2"
done
# The last two classes' FFD, worked out by hand: varied 20 2 (A10G at
# $1.006/h, targetUtilization 80 %) needs 15 GPUs, as 2 of its 27 % batch
# replicas fit a GPU where 90 % would take 3 (13 GPUs); migx 20 0 gives 20
# fault-isolated replicas an H100 each, bought as 20 p5.4xlarge at $6.88/h,
# not as three 8-GPU p5.48xlarge at the same price per GPU ($165.12/h).
python3 tests/bench/quality.py --no-optimum --classes varied,migx --sizes 20 --seeds 3 \
    --gpushare "$bin" --dir "$dir/qx" >"$dir/quality-x.out" || fail "quality.py exited $? ($dir/quality-x.out)"
for want in "varied 2 15.0900" "migx 0 137.6000"; do
	set -- $want
	got=$(awk -v c="$1" -v s="$2" '$1 == c && $3 == s { print $7 }' "$dir/quality-x.out")
	[ "$got" = "$3" ] || fail "FFD of $1 20 $2: $got, expected $3"
done
# An optimum.py that cannot run (here: one that answers as the real one does
# without `cbc`) is an error: a line per fleet and exit 2, not a table that
# looks measured.
fake="$dir/fake-tools"
mkdir -p "$fake"
printf '%s\n' 'print("{\"status\": \"error\", \"optimal_cost\": null, \"error\": \"no cbc here\"}")' \
    >"$fake/optimum.py"
printf '%s\n' 'print("ok")' >"$fake/check_plan.py"
echo '{"gpus": []}' >"$fake/capacities.json"
rc=0
OPTIMUM_DIR="$fake" python3 tests/bench/quality.py --classes ts --sizes 20 --seeds 1 \
    --gpushare "$bin" --dir "$dir/qf" --cache "$dir/qf-cache" >"$dir/quality-fake.out" || rc=$?
[ "$rc" = 2 ] || fail "quality.py with a failing optimum.py exited $rc, expected 2"
grep -qx 'ts       20    0  OPTIMUM FAILED: no cbc here' "$dir/quality-fake.out" ||
	fail "quality.py did not say optimum.py failed ($dir/quality-fake.out)"
echo "bench smoke: ok"
