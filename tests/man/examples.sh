#!/bin/sh
# examples.sh BIN - runs every `.Dl $ gpushare ...` line of every man
# page's EXAMPLES section, so the examples cannot go stale. They run in a
# scratch directory that holds the repository's examples/.
set -u
bin=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
top=$(pwd -P)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$top/examples" "$tmp/examples"
ln -s "$top/tests" "$tmp/tests"
n=0 fail=0
for page in man/*.[1-9]; do
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" | sed -n 's/^\.Dl \$ gpushare //p' > "$tmp/cmds"
	while IFS= read -r args; do
		n=$((n + 1))
		# mdoc escapes: \- is a minus, \e a backslash.
		args=$(printf '%s' "$args" | sed 's/\\-/-/g; s/\\e/\\/g')
		if ! (cd "$tmp" && eval "\"\$bin\" $args" </dev/null >"$tmp/out" 2>&1); then
			echo "man: $page: 'gpushare $args' failed:"
			sed 's/^/    /' "$tmp/out" | head -5
			fail=$((fail + 1))
		fi
	done < "$tmp/cmds"
done
echo "man: $n examples run, $fail failed"
[ "$fail" -eq 0 ]
