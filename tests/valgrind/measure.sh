#!/bin/sh
# measure.sh KIND NAME - one test's seconds under valgrind ($VG, from the
# tree $TOP), as a line of tests/valgrind/costs.
set -u
t0=$(date +%s.%N)
case $1 in
unit) (cd "$TOP/tests" && GS_TOP=.. $VG "../build/vg/tests/$2" >/dev/null 2>&1) ;;
case) GS_WRAP=$VG sh "$TOP/tests/cli/run.sh" "$TOP/build/vg/gpushare" "$2" >/dev/null 2>&1 ;;
esac || { echo "measure: $1 $2 fails under valgrind" >&2; exit 255; }
echo "$1 $2 $(echo "$(date +%s.%N) - $t0" | bc | sed 's/^\./0./; s/\(\.[0-9]\).*/\1/')"
