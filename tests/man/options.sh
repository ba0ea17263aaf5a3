#!/bin/sh
# options.sh BIN - every command's options (from --help, i.e. from the
# option tables the parser uses) appear in gpushare(1) or the command's
# own page, and every command has a man page section.
set -u
bin=$1
fail=0 n=0
cmds=$("$bin" --help | sed -n '/^commands:/,/^$/p' | awk 'NF >= 2 { print $1 }')
for c in $cmds; do
	pages="man/gpushare.1"
	[ -f "man/gpushare-$c.1" ] && pages="$pages man/gpushare-$c.1"
	if ! grep -q "^\.Cm $c\b\|^\.It Cm $c\b\|^\.Nm gpushare-$c" $pages; then
		echo "man: command '$c' is not documented in $pages"
		fail=$((fail + 1))
	fi
	for o in $("$bin" "$c" --help | sed -n 's/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p'); do
		n=$((n + 1))
		grep -q -- "Fl -$o\b\|Fl \\\\-$o\b" $pages || {
			echo "man: '$c --$o' is not in $pages"
			fail=$((fail + 1))
		}
	done
done
echo "man: $n options checked, $fail missing"
[ "$fail" -eq 0 ]
