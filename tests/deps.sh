#!/bin/sh
# deps.sh [run|check] - make sure the Debian packages gpushare needs are
# installed. As root it installs what is missing; otherwise it prints the
# exact apt-get line and fails, so nothing half-builds.
set -u
pkgs="libyaml-dev libcjson-dev libreadline-dev libcurl4-openssl-dev coinor-libcbc-dev pkg-config"
if [ "${1:-run}" = check ]; then
	pkgs="$pkgs libcmocka-dev mandoc python3-yaml valgrind clang libclang-rt-14-dev chromium"
	pkgs="$pkgs prometheus" # tests/live/prometheus.sh: a real server and promtool
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null &&
		apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ echo "deps: apt-get install$missing failed" >&2; exit 1; }
	exit 0
fi
echo "deps: missing packages; run:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
