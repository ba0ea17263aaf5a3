#!/bin/sh
# Lints every man page with mandoc; any warning fails the build.
set -u
status=0
for m in man/*.[1-9]; do
	out=$(mandoc -T lint -W warning "$m" 2>&1)
	if [ -n "$out" ]; then
		echo "$out"
		status=1
	fi
done
[ $status -eq 0 ] && echo "man: $(ls man/*.[1-9] | wc -l) pages lint clean"
exit $status
