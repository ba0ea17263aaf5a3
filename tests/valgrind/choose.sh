#!/bin/sh
# choose.sh [--measure] - picks the tests `make check-valgrind` runs
# (choose.py says how) and writes tests/valgrind/skip-cases, skip-units
# and units. Run it when tests are added or changed much; review the
# lists' diff like code.
#
# It builds the valgrind build of the tracked tree with gcov's counters in
# a temporary directory, runs every golden case and unit test there once
# (about 8 minutes on two cores), and weighs each by its seconds under
# valgrind in tests/valgrind/costs. --measure first measures those again:
# every test under valgrind, two at a time (about 40 minutes).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
mkdir -p "$tree" "$tmp/cov"
# Golden cases may read ../shared beside the tree.
[ -d "$top/../shared" ] && ln -s "$top/../shared" "$tmp/shared"
# The tree as it stands: tracked and new files, not those deleted.
(cd "$top" && git ls-files -z -c -o --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	xargs -0 cp --parents -t "$tree")

units=$(cd "$tree/tests/unit" && ls test_*.c | sed 's/\.c$//')
cases=$(cd "$tree/tests/cli/cases" && ls *.cmd | sed 's/\.cmd$//')

if [ "${1:-}" = --measure ]; then
	make -s -C "$top" -j2 build/vg/gpushare \
	    $(for u in $units; do printf 'build/vg/tests/%s ' "$u"; done)
	vg=$(make -s -C "$top" --no-print-directory print-valgrind)
	{
		for u in $units; do echo "unit $u"; done
		for c in $cases; do echo "case $c"; done
	} | VG=$vg TOP=$top xargs -P 2 -L 1 sh "$here/measure.sh" \
	    > "$tmp/costs"
	{ echo "# Seconds under valgrind, measured by choose.sh --measure" \
	      "on $(date -u +%Y-%m-%d), two tests at a time."; sort "$tmp/costs"; } \
	    > "$here/costs"
fi

# Without -Werror: gcc 12's counters make it see a memcpy of a negative
# size in repl_complete.c that the release build does not.
make -s -C "$tree" -j2 CC="${CC:-cc} --coverage" WARN=-w build/vg/gpushare \
    $(for u in $units; do printf 'build/vg/tests/%s ' "$u"; done) >/dev/null
for c in $cases; do
	GS_WRAP="env GCOV_PREFIX=$tmp/cov/cli_$c" \
	    sh "$tree/tests/cli/run.sh" "$tree/build/vg/gpushare" "$c" >/dev/null ||
	    { echo "choose: golden case $c fails" >&2; exit 1; }
done
for u in $units; do
	(cd "$tree/tests" && GCOV_PREFIX=$tmp/cov/unit_$u GS_TOP=.. \
	    "../build/vg/tests/$u" >/dev/null 2>&1) ||
	    { echo "choose: unit test $u fails" >&2; exit 1; }
done
python3 "$here/choose.py" "$tree" "$tmp/cov" "$here/costs" "$here"
