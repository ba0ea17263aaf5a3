#!/bin/sh
# symbols.sh - the library exports its API and nothing else.
#  1. Every function include/gpushare.h declares is marked GS_EXPORT, and
#     libgpushare.so exports exactly those (hidden visibility does the rest).
#  2. Every global symbol of libgpushare.a starts with gs_, so a program that
#     links the static library inherits no bare names.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

unmarked=$(awk 'prev != "GS_EXPORT" && /^(const |unsigned )?[a-z_]+[ *]+[*]?gs_[a-z0-9_]+[(]/ {
	print FILENAME ":" NR ": " $0 } { prev = $0 }' include/gpushare.h)
if [ -n "$unmarked" ]; then
	echo "symbols: functions of include/gpushare.h without GS_EXPORT:"
	echo "$unmarked"
	fail=1
fi

awk '/^GS_EXPORT$/ { want = 1; next }
     want { if (match($0, /gs_[a-z0-9_]+\(/)) print substr($0, RSTART, RLENGTH - 1); want = 0 }' \
	include/gpushare.h | sort -u >"$tmp/declared"
nm -D --defined-only libgpushare.so | awk '$2 ~ /^[TWDBR]$/ { print $3 }' | sort -u >"$tmp/exported"
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
	echo "symbols: libgpushare.so exports differ from include/gpushare.h (< header, > library):"
	diff "$tmp/declared" "$tmp/exported" | grep '^[<>]'
	fail=1
fi

nm -g --defined-only libgpushare.a | awk 'NF == 3 { print $3 }' | grep -v '^gs_' | sort -u >"$tmp/bare"
if [ -s "$tmp/bare" ]; then
	echo "symbols: libgpushare.a defines global names without the gs_ prefix:"
	sed 's/^/  /' "$tmp/bare"
	fail=1
fi

n=$(wc -l <"$tmp/exported")
[ "$fail" -eq 0 ] && echo "symbols: $n exported, all declared; no bare names"
exit "$fail"
