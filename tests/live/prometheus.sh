#!/bin/sh
# prometheus.sh BIN - `gpushare import --prometheus` against a real Prometheus
# (issue 15 section 3). For each test cluster the DCGM samples of its metrics
# files become OpenMetrics text (prom_series.py: why a range query returns
# exactly those samples is said there), promtool backfills a TSDB with them,
# and prometheus serves it on 127.0.0.1 on a free port. The workload file and
# the JSON report imported through Prometheus must equal, byte for byte,
# those imported from the files, also when the range is split in two
# queries per field (more than 11,000 points) with the samples on both
# sides of the split. Then the error paths: a stopped server, a wrong path,
# no DCGM series in the window, and a fake server (fake_prom.py) that is
# slow, answers Prometheus' error JSON, warns, answers HTML, answers too
# much, or wants a token. Skips, saying so, only when prometheus is not
# installed (Debian: apt-get install prometheus).
set -u
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
top=$(pwd)
here="$top/tests/live"
pass=0
fail=0

if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
	echo "prometheus: SKIPPED: prometheus and promtool are not installed" \
	    "(apt-get install prometheus), so --prometheus was not tested" >&2
	exit 0
fi

tmp=$(mktemp -d)
pids=
stop() { # pid: ends one server this script started
	kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
	pids=$(echo "$pids" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
}
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# Requests to 127.0.0.1 go straight there, and carry no token of the caller's.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY PROMETHEUS_TOKEN

ok() { pass=$((pass + 1)); }
bad() { # what [file-to-show]
	fail=$((fail + 1))
	echo "FAIL: $1" >&2
	[ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -30 >&2
	return 0
}
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts prometheus over the TSDB in DIR; sets port and prom_pid.
start_prometheus() { # dir
	printf 'global:\n  scrape_interval: 1h\n' >"$1/prometheus.yml"
	for try in 1 2 3; do
		port=$(free_port)
		prometheus --config.file="$1/prometheus.yml" --storage.tsdb.path="$1/data" \
		    --web.listen-address="127.0.0.1:$port" >"$1/prometheus.log" 2>&1 &
		prom_pid=$!
		pids="$pids $prom_pid"
		for i in $(seq 100); do
			curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1 && return 0
			kill -0 "$prom_pid" 2>/dev/null || break
			sleep 0.1
		done
		stop "$prom_pid" # the port was taken meanwhile, or it never got ready
	done
	echo "prometheus: the server did not start:" >&2
	tail -5 "$1/prometheus.log" >&2
	exit 1
}

# cluster NAME NODES PODS METRICS...: backfills the samples of METRICS,
# serves them, and compares the import through Prometheus with the files'.
cluster() {
	name=$1 c_nodes=$2 c_pods=$3
	shift 3
	d="$tmp/$name"
	mkdir -p "$d"
	start=1732200000 step=600
	# shellcheck disable=SC2086
	read -r until window <<EOF
$(python3 "$here/prom_series.py" "$d/series.om" $start $step "$@")
EOF
	if ! promtool tsdb create-blocks-from openmetrics "$d/series.om" "$d/data" \
	    >"$d/promtool.log" 2>&1; then
		bad "$name: promtool cannot backfill the samples" "$d/promtool.log"
		return
	fi
	start_prometheus "$d"
	url="http://127.0.0.1:$port"
	files=
	for m in "$@"; do files="$files -m $m"; done
	for f in yaml json; do
		fmt=
		[ $f = json ] && fmt="--format json"
		# shellcheck disable=SC2086
		"$bin" import --nodes "$c_nodes" --pods "$c_pods" $files $fmt \
		    >"$d/files.$f" 2>"$d/files.err" || bad "$name: the import of the files failed" \
		    "$d/files.err"
		# shellcheck disable=SC2086
		if ! "$bin" import --nodes "$c_nodes" --pods "$c_pods" --prometheus "$url" \
		    --until $until --window $window --step 10m $fmt >"$d/prom.$f" 2>"$d/prom.err"; then
			bad "$name: import --prometheus failed" "$d/prom.err"
		elif cmp -s "$d/files.$f" "$d/prom.$f"; then
			ok
		else
			diff "$d/files.$f" "$d/prom.$f" >"$d/diff"
			bad "$name: the $f from Prometheus differs from the files' (< files, > Prometheus)" \
			    "$d/diff"
		fi
	done
	# plan --nodes plans from the same import.
	# shellcheck disable=SC2086
	"$bin" plan --nodes "$c_nodes" --pods "$c_pods" $files >"$d/files.plan" 2>/dev/null
	"$bin" plan --nodes "$c_nodes" --pods "$c_pods" --prometheus "$url" --until $until \
	    --window $window --step 10m >"$d/prom.plan" 2>"$d/prom.err"
	if [ ! -s "$d/files.plan" ] || ! cmp -s "$d/files.plan" "$d/prom.plan"; then
		diff "$d/files.plan" "$d/prom.plan" >"$d/diff"
		bad "$name: plan --prometheus differs from plan --metrics" "$d/diff"
	else
		ok
	fi
	# The series end 2 steps before --until (nothing may carry them on), and
	# the range is 11,000 points longer than the samples' span plus 2: the
	# first query of each field (11,000 points) ends at the second sample,
	# the next one holds the rest.
	long=$(((until - start) + 11000 * step))
	if ! "$bin" import -v --nodes "$c_nodes" --pods "$c_pods" --prometheus "$url" \
	    --until $((until + 2 * step)) --window $long --step $step >"$d/long.yaml" \
	    2>"$d/long.err"; then
		bad "$name: the import of 11,005 points failed" "$d/long.err"
	elif ! cmp -s "$d/files.yaml" "$d/long.yaml"; then
		diff "$d/files.yaml" "$d/long.yaml" >"$d/diff"
		bad "$name: split in two queries, the workload file differs" "$d/diff"
	elif [ "$(grep -c "from $((until + 2 * step - long)) to $((start + step)):" \
	    "$d/long.err")" != 4 ] || [ "$(grep -c "from $((start + 2 * step)) to $((until + 2 * step)):" \
	    "$d/long.err")" != 4 ]; then
		bad "$name: not two queries per field, split after the second sample" "$d/long.err"
	else
		ok
	fi
}

fx="$top/tests/fixtures/import"
nodes="$fx/nodes.json" pods="$fx/pods.json"
cluster fixture "$fx/nodes.json" "$fx/pods.json" "$fx/t4-a-1.prom" "$fx/t4-a-2.prom" \
    "$fx/t4-b.prom" "$fx/a100-mixed.prom" "$fx/range.json"

# A window before the first sample: no series, a warning, and the workloads
# keep their requests (the same file as an import without metrics). The
# time is RFC 3339 with an offset: 1700000000 in unix seconds.
"$bin" import --nodes "$nodes" --pods "$pods" >"$tmp/none.yaml" 2>/dev/null
if ! "$bin" import --nodes "$nodes" --pods "$pods" --prometheus "$url" \
    --until 2023-11-14T23:13:20+01:00 --window 1h >"$tmp/out" 2>"$tmp/err"; then
	bad "no series: the import failed" "$tmp/err"
elif ! cmp -s "$tmp/out" "$tmp/none.yaml" ||
    ! grep -qx "gpushare: warning: $url: no DCGM series from 2023-11-14T21:13:20Z to\
 2023-11-14T22:13:20Z (4 fields asked for): workloads without other metrics keep what\
 they request" "$tmp/err"; then
	bad "no series: not the file without metrics, or no warning" "$tmp/err"
else
	ok
fi

# expect NAME RC 'STDERR LINE' ARGS...: the exit status, an empty stdout, and
# the one line on stderr (a grep -x pattern).
expect() {
	name=$1 rc=$2 line=$3
	shift 3
	"$bin" import --nodes "$nodes" --pods "$pods" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$rc" ]; then
		bad "$name: exit status $got, not $rc" "$tmp/err"
	elif [ -s "$tmp/out" ]; then
		bad "$name: wrote to stdout" "$tmp/out"
	elif [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -qx -- "$line" "$tmp/err"; then
		echo "    expected: $line" >>"$tmp/err"
		bad "$name: not the one expected line" "$tmp/err"
	else
		ok
	fi
}

expect "wrong path" 2 "gpushare: $url/graph: error: query_range DCGM_FI_PROF_SM_ACTIVE:\
 HTTP 404, not a Prometheus API response (\"404 page not found\"): is it Prometheus'\
 base URL?" --prometheus "$url/graph"
expect "TLS to a plain server" 2 "gpushare: https://127.0.0.1:$port: error: cannot connect:\
 TLS: .*" --prometheus "https://127.0.0.1:$port"
stop "$prom_pid"
expect "stopped server" 2 "gpushare: $url/: error: cannot connect: Connection refused" \
    --prometheus "$url/"
expect "no such host" 2 "gpushare: http://prometheus.invalid:9090: error: cannot connect:\
 Could not resolve host: prometheus.invalid" --prometheus http://prometheus.invalid:9090

# The second cluster: the repro of issue 15, range.json's per-pod series of
# the time-sliced T4 and the real scrapes of its L4, T4 and L40S nodes.
rc="$here/cluster" smp="$fx/samples"
cluster repro "$rc/nodes.json" "$rc/pods.json" "$rc/range.json" \
    "$smp/l4-aws-kops.cncf-ai-conformance.prom" \
    "$smp/t4-ericsson-ccd-91pct-util.cncf-ai-conformance.prom" \
    "$smp/l40s-upcloud.cncf-ai-conformance.prom"
stop "$prom_pid"

# The fake server, serving the fixture cluster's range.json.
python3 "$here/fake_prom.py" "$tmp/fake.port" "$fx/range.json" 2>"$tmp/fake.log" &
pids="$pids $!"
for i in $(seq 50); do [ -s "$tmp/fake.port" ] && break; sleep 0.1; done
fake="http://127.0.0.1:$(cat "$tmp/fake.port")"
"$bin" import --nodes "$nodes" --pods "$pods" -m "$fx/range.json" >"$tmp/range.yaml" 2>/dev/null
w="--until 1732202400 --window 1h --step 10m"

# shellcheck disable=SC2086
expect "timeout" 2 "gpushare: $fake/sleep: error: no complete response within 1 second\
 (--timeout)" --prometheus "$fake/sleep" --timeout 1 $w
# shellcheck disable=SC2086
expect "bad_data" 2 "gpushare: $fake/baddata: error: query_range DCGM_FI_PROF_SM_ACTIVE:\
 HTTP 400: bad_data: invalid parameter \"query\": 1:1: parse error: unexpected end" \
    --prometheus "$fake/baddata" $w
# shellcheck disable=SC2086
expect "timeout JSON" 2 "gpushare: $fake/unavail: error: query_range DCGM_FI_PROF_SM_ACTIVE:\
 HTTP 503: timeout: query timed out in query execution (a shorter --window or a larger\
 --step asks for less)" --prometheus "$fake/unavail" $w
# shellcheck disable=SC2086
expect "HTML" 2 "gpushare: $fake/html: error: query_range DCGM_FI_PROF_SM_ACTIVE: HTTP 200,\
 but not a Prometheus API response (text/html; charset=utf-8, \"<!DOCTYPE html>\"): is it\
 Prometheus' base URL?" --prometheus "$fake/html" $w
# shellcheck disable=SC2086
expect "unauthorized" 2 "gpushare: $fake/auth: error: query_range DCGM_FI_PROF_SM_ACTIVE:\
 HTTP 401, not a Prometheus API response (\"Unauthorized\"): is it Prometheus' base URL?" \
    --prometheus "$fake/auth" $w
# shellcheck disable=SC2086
expect "password hidden" 2 "gpushare: http://127.0.0.1:[0-9]*/auth: error: .*HTTP 401.*" \
    --prometheus "http://user:wrong@${fake#http://}/auth" $w

# Answers that succeed: each must give range.json's workload file; its
# stderr is left in $tmp/err.
succeeds() { # name args...
	name=$1
	shift
	if ! "$bin" import --nodes "$nodes" --pods "$pods" "$@" >"$tmp/out" 2>"$tmp/err"; then
		bad "$name: failed" "$tmp/err"
		return 1
	elif ! cmp -s "$tmp/out" "$tmp/range.yaml"; then
		diff "$tmp/range.yaml" "$tmp/out" >"$tmp/diff"
		bad "$name: not range.json's workload file" "$tmp/diff"
		return 1
	fi
}
once() { # name line: the line (a grep -x pattern) is on stderr once
	if [ "$(grep -c -x -- "$2" "$tmp/err")" = 1 ]; then
		ok
	else
		echo "    expected once: $2" >>"$tmp/err"
		bad "$1" "$tmp/err"
	fi
}

# shellcheck disable=SC2086
succeeds "a good answer" --prometheus "$fake/ok" $w &&
	once "a good answer: its summary" "gpushare: $fake/ok: 13 series from\
 2024-11-21T14:20:00Z to 2024-11-21T15:20:00Z, a point every 10m (4 queries)"
# shellcheck disable=SC2086
succeeds "warnings" --prometheus "$fake/warn" $w && {
	once "warnings: the first, once for 4 queries" "gpushare: warning: $fake/warn:\
 Prometheus warns: PromQL info: metric might not be a counter"
	once "warnings: the second, its newline escaped" "gpushare: warning: $fake/warn:\
 Prometheus warns: a store was unreachable: \"eu-1\"\\\\nretrying"
}
PROMETHEUS_TOKEN=t0ken
export PROMETHEUS_TOKEN
# shellcheck disable=SC2086
succeeds "a bearer token" --prometheus "$fake/auth" $w && ok
unset PROMETHEUS_TOKEN
# shellcheck disable=SC2086
succeeds "basic authentication" -v --prometheus "http://user:pa55@${fake#http://}/auth" $w &&
	if grep -q pa55 "$tmp/err"; then bad "basic authentication: the password shows" \
	    "$tmp/err"; else ok; fi
# Over 4000 points the fake answers 17 MiB: the range is asked for again in
# halves (2501 points, then 2500), and nothing is read twice.
# shellcheck disable=SC2086
succeeds "a body over the cap" -v --prometheus "$fake/big" --until 1732202400 \
    --window $((5000 * 600)) --step 600 &&
	once "a body over the cap: halved" "gpushare: $fake/big: DCGM_FI_PROF_SM_ACTIVE:\
 a response passed 8 MiB; 2501 points per query from now on"
grep -c '^big ' "$tmp/fake.log" >"$tmp/n"
[ "$(cat "$tmp/n")" = 9 ] && ok || bad "a body over the cap: $(cat "$tmp/n") queries, not\
 9 (5001 points, then 2501 + 2500 for each of 4 fields)" "$tmp/fake.log"

echo "prometheus: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
