#!/bin/sh
# run.sh BIN - hostile input that cannot live in a golden case (binary,
# huge or generated), and the file guarantees: SIGPIPE, a full disk, a
# read-only directory, and SIGKILL at random points while writing.
set -u
bin=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
top=$(pwd -P)
tmp=$(mktemp -d)
pass=0
fail=0
mounted=""
cleanup() {
	for m in $mounted; do umount "$m" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# expect NAME RC STDERR-LINE -- ARGS...: exact exit status and message.
expect() {
	name=$1 rc=$2 want=$3
	shift 4
	got=$(cd "$tmp" && "$bin" "$@" 2>&1 >/dev/null)
	st=$?
	got=$(printf '%s' "$got" | sed "s|$tmp|TMP|g")
	if [ "$st" -eq "$rc" ] && [ "$got" = "$want" ]; then ok; else
		bad "$name: exit $st (want $rc)"
		printf '    got:  %s\n    want: %s\n' "$got" "$want"
	fi
}

# expect_prefix NAME RC PREFIX -- ARGS...: one line, at most 1 KiB, that
# starts with PREFIX (long values are cut, not echoed whole).
expect_prefix() {
	name=$1 rc=$2 want=$3
	shift 4
	got=$(cd "$tmp" && "$bin" "$@" 2>&1 >/dev/null)
	st=$?
	lines=$(printf '%s\n' "$got" | wc -l)
	case $got in
	"$want"*) [ "$st" -eq "$rc" ] && [ "$lines" -eq 1 ] && [ ${#got} -le 1024 ] && { ok; return; } ;;
	esac
	bad "$name: exit $st (want $rc), $lines lines, ${#got} bytes"
	printf '    got:  %.200s\n    want: %s...\n' "$got" "$want"
}

wl() { # a workload file with one workload whose line LINE is given
	printf 'version: 1\nworkloads:\n  - name: a\n    gpuMemory: 1GiB\n    compute: 10%%\n%s' "$1"
}

# ---- hostile input ------------------------------------------------------------
printf 'version: 1\0\n' > "$tmp/nul.yaml"
expect nul 2 "gpushare: nul.yaml:1:11: error: NUL byte in the file" -- plan nul.yaml
printf 'version: 1\nworkloads:\n  - name: "caf\351"\n' > "$tmp/utf8.yaml"
expect invalid-utf8 2 "gpushare: utf8.yaml:3:16: error: invalid trailing UTF-8 octet (the file must be UTF-8)" -- plan utf8.yaml
{ printf '\357\273\277'; wl ''; } > "$tmp/bom.yaml"
expect bom 0 "" -- plan bom.yaml
{ printf 'version: 1\n'; head -c 200000 /dev/zero | tr '\0' k; printf ': 1\n'; } > "$tmp/longkey.yaml"
expect_prefix long-key 2 "gpushare: longkey.yaml:2:200001: error: could not find expected ':' while scanning a simple key" -- plan longkey.yaml
{ wl '    team: '; head -c 300000 /dev/zero | tr '\0' t; printf '\n'; } > "$tmp/longval.yaml"
expect_prefix long-value 2 "gpushare: longval.yaml:6:11: error: team 'tttttttttt" -- plan longval.yaml
expect dev-zero 2 "gpushare: /dev/zero: error: file is larger than the 64 MiB limit" -- plan /dev/zero
truncate -s 70M "$tmp/huge.yaml"
expect huge 2 "gpushare: huge.yaml: error: file is larger than the 64 MiB limit" -- plan huge.yaml
wl '    replicas: 99999999999999999999\n' > "$tmp/overflow.yaml"
printf 'version: 1\nworkloads:\n  - name: a\n    gpuMemory: 1GiB\n    compute: 10%%\n    replicas: 99999999999999999999\n' > "$tmp/overflow.yaml"
expect overflow 2 "gpushare: overflow.yaml:6:15: error: 'replicas': 99999999999999999999 is out of range (1 to 100000)" -- plan overflow.yaml
printf 'version: 1\nworkloads:\n  - name: a\n    gpuMemory: 1GiB\n    compute: .nan\n' > "$tmp/nan.yaml"
expect nan 2 "gpushare: nan.yaml:5:14: error: '.nan' is not a share (use a percentage like '40%' or a fraction like '0.4')" -- plan nan.yaml
printf 'version: 1\nworkloads:\n  - name: a\n    gpuMemory: .inf\n    compute: 10%%\n' > "$tmp/inf.yaml"
expect inf 2 "gpushare: inf.yaml:4:16: error: '.inf' is not a memory size (try '10GiB' or '512MiB')" -- plan inf.yaml
printf 'version: 1\nworkloads:\n  - name: a\n    gpuMemory: -4GiB\n    compute: 10%%\n' > "$tmp/neg.yaml"
expect negative-memory 2 "gpushare: neg.yaml:4:16: error: '-4GiB' is not a memory size (try '10GiB' or '512MiB')" -- plan neg.yaml
printf 'version: 1\nworkloads:\n  - name: a\n    gpuMemory: 1GiB\n    compute: -10%%\n' > "$tmp/negc.yaml"
expect negative-compute 2 "gpushare: negc.yaml:5:14: error: '-10%' is not a percentage (try '40%')" -- plan negc.yaml

# ---- SIGPIPE: a reader that stops early ends gpushare quietly -------------------
# (stderr goes to the capture through fd 3, stdout to the reader.)
err=$( { { "$bin" plan "$top/examples/mixed-fleet.yaml" 2>&3 3>&-; echo "exit $?" >&3; } |
	head -1 >/dev/null; } 3>&1 )
case $err in "exit 0" | "exit 141") ok ;; *) bad "sigpipe: printed '$err'" ;; esac

# ---- output that cannot be written: a full stdout, a closed stdout ---------------
# lost NAME HOW WANT -- ARGS...: stdout is /dev/full (HOW=full) or closed
# (HOW=closed); the command must fail with exactly WANT on stderr.
lost() {
	name=$1 how=$2 want=$3
	shift 4
	if [ "$how" = full ]; then
		got=$(cd "$top" && "$bin" "$@" 2>&1 >/dev/full)
	else
		got=$(cd "$top" && "$bin" "$@" 2>&1 >&-)
	fi
	st=$?
	if [ "$st" -eq 1 ] && [ "$got" = "$want" ]; then ok; else
		bad "$name: exit $st (want 1)"
		printf '    got:  %s\n    want: %s\n' "$got" "$want"
	fi
}
full="gpushare: error: cannot write the output: No space left on device"
closed="gpushare: error: cannot write the output: standard output is closed"
lost gpus-full full "$full" -- gpus
lost gpus-json-full full "$full" -- gpus --format json
lost plan-full full "$full" -- plan examples/workloads.yaml
lost plan-json-full full "$full" -- plan examples/workloads.yaml --format json
lost plan-yaml-full full "$full" -- plan examples/workloads.yaml --format yaml
lost plan-json-closed closed "$closed" -- plan examples/workloads.yaml --format json
lost emit-full full "$full" -- emit device-plugin examples/workloads.yaml
lost import-full full "gpushare: warning: pod 'research/debug-shell' runs on node \
'gpu-l4-gone', which is not a GPU node of the node list
$full" -- import --nodes tests/fixtures/import/nodes.json \
	--pods tests/fixtures/import/pods.json
lost version-closed closed "$closed" -- --version
lost plan-closed closed "$closed" -- plan examples/workloads.yaml
lost instances-closed closed "$closed" -- instances
# A closed stdout must not become the next file opened: the emitted files
# hold YAML, not the plan's text.
mkdir -p "$tmp/closed"
(cd "$top" && "$bin" plan examples/workloads.yaml --emit "$tmp/closed/out" >&- 2>/dev/null)
if grep -q '^Plan for' "$tmp"/closed/out/* 2>/dev/null; then
	bad "closed stdout: the plan's text went into an emitted file"
else ok; fi

# ---- only regular files are replaced; files follow the umask -------------------
mkdir -p "$tmp/safe"
ln -s /dev/null "$tmp/safe/link.html"
expect force-symlink 1 "gpushare: safe/link.html: error: is not a regular file; only regular \
files are replaced" -- plan "$top/examples/workloads.yaml" --report safe/link.html --force
[ -L "$tmp/safe/link.html" ] && ok || bad "force-symlink: the symlink was replaced"
expect force-device 1 "gpushare: /dev/null: error: is not a regular file; only regular files \
are replaced" -- plan "$top/examples/workloads.yaml" --report /dev/null --force
[ -c /dev/null ] && ok || bad "force-device: /dev/null is no longer a device"
(cd "$tmp/safe" && umask 027 && "$bin" plan "$top/examples/workloads.yaml" --emit out \
	>/dev/null 2>&1)
modes=$(stat -c %a "$tmp"/safe/out/* | sort -u)
[ "$modes" = 640 ] && ok || bad "umask 027: emitted files have modes $modes, not 640"

# ---- full disk and read-only directories (need root to mount) -------------------
if [ "$(id -u)" -eq 0 ] && mkdir -p "$tmp/full" && mount -t tmpfs -o size=12k tmpfs "$tmp/full" 2>/dev/null; then
	mounted="$tmp/full"
	"$bin" plan "$top/examples/multi-tenant-mig.yaml" --emit "$tmp/full/out" >/dev/null 2>"$tmp/err"
	st=$?
	left=$(ls -A "$tmp/full/out" 2>/dev/null | grep -v '^\(device-plugin-config\|gpu-operator-values\|mig-config\|labels\|workloads\)' )
	if [ "$st" -eq 1 ] && grep -q "No space left on device" "$tmp/err" && [ -z "$left" ]; then ok; else
		bad "full disk: exit $st, $(cat "$tmp/err"), left: $left"; fi
	# Whatever was written completely before the disk filled is whole.
	for f in "$tmp"/full/out/*; do
		[ -e "$f" ] || continue
		"$bin" plan "$top/examples/multi-tenant-mig.yaml" --emit "$tmp/ref" --force >/dev/null 2>&1
		cmp -s "$f" "$tmp/ref/$(basename "$f")" && ok || bad "full disk: $(basename "$f") is partial"
	done
	[ -e "$tmp/full/out" ] && bad "full disk: a partial set was left in out/" || ok
	mkdir -p "$tmp/ro" && mount -t tmpfs -o size=1m tmpfs "$tmp/ro" && mounted="$mounted $tmp/ro"
	mkdir "$tmp/ro/out" && echo "old" > "$tmp/ro/out/device-plugin-config.yaml"
	mount -o remount,ro "$tmp/ro"
	"$bin" plan "$top/examples/workloads.yaml" --emit "$tmp/ro/out" --force >/dev/null \
		2>"$tmp/err"
	st=$?
	if [ "$st" -eq 1 ] && grep -q "Read-only file system" "$tmp/err" &&
	    [ "$(cat "$tmp/ro/out/device-plugin-config.yaml")" = old ]; then ok; else
		bad "read-only: exit $st, $(cat "$tmp/err")"; fi
else
	echo "hardening: SKIPPED full-disk and read-only tests: mounting a tmpfs needs root" >&2
fi

# ---- SIGKILL while writing: the directory holds the old set or the new one ------
big="$tmp/big.yaml"
{
	printf 'version: 1\ncloud: all\nworkloads:\n'
	i=0
	while [ $i -lt 600 ]; do
		printf '  - name: w%d\n    replicas: 5\n    gpuMemory: %dGiB\n    compute: %d%%\n    tenant: t%d\n' \
		    $i $((i % 30 + 1)) $((i % 70 + 5)) $((i % 7))
		i=$((i + 1))
	done
} > "$big"
"$bin" plan "$big" --emit "$tmp/ref2" --dra >/dev/null 2>&1
mkdir -p "$tmp/kill"
echo "old" > "$tmp/kill/workloads.yaml"
n=0
while [ $n -lt 25 ]; do
	"$bin" plan "$big" --emit "$tmp/kill" --force --dra >/dev/null 2>&1 &
	pid=$!
	sleep "0.0$(( (n * 37) % 90 + 5 ))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ "$(ls "$tmp/kill")" = workloads.yaml ] && [ "$(cat "$tmp/kill/workloads.yaml")" = old ]
	then :; elif diff -r "$tmp/kill" "$tmp/ref2" >/dev/null; then
		echo "old" > "$tmp/kill.new" # the new set is in: start again from an old one
		rm -rf "$tmp/kill" && mkdir "$tmp/kill" && mv "$tmp/kill.new" "$tmp/kill/workloads.yaml"
	else
		bad "kill $n: the directory mixes sets: $(ls "$tmp/kill" | tr '\n' ' ')"
	fi
	n=$((n + 1))
done
ok

# ---- a plan of megabytes, written as it is described (gs_plan_write) ------------
# All of it and in order: the JSON parses and places every replica once. A
# reader that stops early ends it quietly, and a disk that fills after the
# first MiB fails it with the disk's error.
"$bin" plan "$big" --format json >"$tmp/big.json" 2>"$tmp/err"
st=$?
size=$(wc -c <"$tmp/big.json")
if [ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$size" -gt 2097152 ] && python3 -c '
import collections, json, sys
d = json.load(open(sys.argv[1]))
seen = collections.Counter()
for n in d["nodes"]:
    for g in n["gpus"]:
        for part in [g] + g["mig"]:
            for a in part["assignments"]:
                seen[a["workload"], a["replica"]] += 1
sys.exit(not (d["replicas"] == 3000 and len(seen) == 3000 and max(seen.values()) == 1))
' "$tmp/big.json"; then ok; else bad "big plan: exit $st, $size bytes, $(cat "$tmp/err")"; fi
err=$( { { timeout 120 "$bin" plan "$big" --format json 2>&3 3>&-; echo "exit $?" >&3; } |
	head -c 1500000 >/dev/null; } 3>&1 )
if [ "$err" = "exit 141" ]; then ok; else bad "big plan, sigpipe: $err"; fi
if [ "$(id -u)" -eq 0 ] && mkdir -p "$tmp/full2" && mount -t tmpfs -o size=2m tmpfs "$tmp/full2" 2>/dev/null; then
	mounted="$mounted $tmp/full2"
	got=$("$bin" plan "$big" --format json 2>&1 >"$tmp/full2/plan.json")
	st=$?
	if [ "$st" -eq 1 ] && [ "$got" = "$full" ]; then ok; else bad "big plan, full disk: exit $st, $got"; fi
fi
echo "hardening: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
