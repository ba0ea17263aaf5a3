#!/bin/sh
# jobs_test.sh - the pool (jobs.sh) fails when a job fails: `make check`
# is green only through it. Fuzz jobs of harnesses that do not exist
# stand in for failing tests (tests/fuzz/run.sh fails on each).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
err=$(mktemp)
fz=$here/../build/fuzz
# What tests/fuzz/run.sh leaves of the harnesses that do not exist.
trap 'rm -rf "$out" "$err" "$fz"/gone[12].log "$fz"/corpus/gone[12] "$fz"/seeds/gone[12]' EXIT
fails=0

check() { # WHAT WANT-STATUS GOT-STATUS
	if [ "$2" != "$3" ]; then
		echo "jobs_test: $1: status $3, not $2"
		sed 's/^/    /' "$out" "$err"
		fails=$((fails + 1))
	fi
}

has() { # WHAT FILE LINE
	if ! grep -qxF "$3" "$2"; then
		echo "jobs_test: $1: no line '$3' in:"
		sed 's/^/    /' "$2"
		fails=$((fails + 1))
	fi
}

# One worker: the first job fails, the second never starts.
FUZZ_BIN="build/fuzz/gone1 build/fuzz/gone2" CHECK_JOBS=1 sh "$here/jobs.sh" fuzz \
	>"$out" 2>"$err"
check "a failing job" 1 $?
has "a failing job" "$out" "== gone1: failed (status 1)"
has "a failing job" "$out" "== gone2: not run (a job failed)"
has "a failing job" "$err" "jobs: failed: gone1"

# No jobs: nothing fails.
FUZZ_BIN="" sh "$here/jobs.sh" fuzz >"$out" 2>"$err"
check "no jobs" 0 $?
has "no jobs" "$out" "jobs: 0 in 0 s, 2 at a time"

sh "$here/jobs.sh" fuzzy >"$out" 2>"$err"
check "an unknown kind" 2 $?
has "an unknown kind" "$err" "jobs.sh: unknown kind 'fuzzy' (san, vg or fuzz)"

[ $fails -eq 0 ] && echo "jobs_test: a failed job fails the pool"
[ $fails -eq 0 ]
