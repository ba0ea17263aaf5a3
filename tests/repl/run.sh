#!/bin/sh
# run.sh - the session's terminal test (pty_test.py), from the top of the
# tree, for `make check`:
#
#   sh tests/repl/run.sh build/san/gpushare
#
# It prints "N passed, M failed" and exits 1 when a check failed. The test
# kills the session after 10 seconds; `timeout` is a second guard.
set -u
if [ $# -ne 1 ]; then
	echo "usage: sh tests/repl/run.sh BIN" >&2
	exit 2
fi
case $1 in
/*) bin=$1 ;;
*) bin=$(pwd -P)/$1 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd -P) || exit 2
cd "$top" || exit 2
if command -v timeout > /dev/null 2>&1; then
	exec timeout 20 python3 tests/repl/pty_test.py "$bin" examples/workloads.yaml
fi
exec python3 tests/repl/pty_test.py "$bin" examples/workloads.yaml
