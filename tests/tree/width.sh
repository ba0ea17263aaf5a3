#!/bin/sh
# width.sh - no line of C or of a Makefile is wider than 100 columns (tabs
# are 8), so code reads in a terminal and in side-by-side diffs. Aim for
# 80 where it reads better; .clang-format wraps at 100.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
max=100
files=$(find include lib cli tests -name '*.[ch]' | sort)
over=$(for f in $files Makefile; do
	expand -t 8 "$f" | awk -v f="$f" -v max="$max" \
		'length($0) > max { printf "%s:%d: %d columns\n", f, NR, length($0) }'
done)
if [ -n "$over" ]; then
	echo "$over"
	echo "width: $(echo "$over" | wc -l) line(s) over $max columns"
	exit 1
fi
n80=$(for f in $files; do expand -t 8 "$f"; done | awk 'length($0) > 80' | wc -l)
echo "width: no line over $max columns ($n80 over 80)"
