#!/bin/sh
# dist.sh - `make dist` gives a tarball that builds from scratch and plans
# the shipped example.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(make -s dist | tail -1) || { echo "dist: make dist failed"; exit 1; }
tar -xzf "$tarball" -C "$tmp" || { echo "dist: cannot unpack $tarball"; exit 1; }
dir="$tmp/${tarball%.tar.gz}"
if ! make -s -j2 -C "$dir" all >"$tmp/build.log" 2>&1; then
	echo "dist: $tarball does not build:"
	tail -20 "$tmp/build.log"
	exit 1
fi
if ! (cd "$dir" && ./gpushare plan examples/workloads.yaml >/dev/null); then
	echo "dist: the unpacked build cannot plan examples/workloads.yaml"
	exit 1
fi
rm -f "$tarball"
echo "dist: $tarball builds from scratch and plans the example"
