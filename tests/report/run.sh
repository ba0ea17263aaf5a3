#!/bin/sh
# run.sh BIN - renders the HTML report of every example and loads it in
# headless Chromium: a screenshot at desktop and phone widths, the DOM
# (the summary figures the text output prints, every team and workload
# name), no console messages (the page has no script, so any message is
# the browser complaining about the markup), and the same elements in the
# browser's DOM as in the page, whose tags must all close in order.
#
#   sh tests/report/run.sh BIN          (from the top of the tree)
#   KEEP=DIR sh tests/report/run.sh BIN keeps the pages, PNGs and DOMs
#   CHROMIUM=PATH picks the browser (default: chromium on the PATH)
#
# Pages come from `BIN plan FILE --report OUT` when BIN has that option,
# else from tests/report/render.c built against BIN's libgpushare.a.
# Without a browser that runs, prints a loud SKIPPED line and exits 0.
# The last line is "N passed, M failed"; the exit status is 1 when any
# check failed.
set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/report/run.sh BIN" >&2
	exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
top=$(pwd -P)
here=$top/tests/report
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpushare-report.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

chrome=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chrome" ]; then
	echo "report: SKIPPED: chromium is not installed (apt-get install -y chromium)," \
	     "so the HTML reports were NOT checked in a browser" >&2
	exit 0
fi

# browser OUT ERR ARGS... - one headless run, killed after 30 seconds,
# with a fresh profile and no way to resolve any host name.
browser() {
	out=$1 err=$2
	shift 2
	prof=$(mktemp -d "$tmp/profile.XXXXXX")
	timeout -k 5 30 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic \
	    --no-first-run --disable-background-networking --disable-component-update \
	    --disable-sync --user-data-dir="$prof" --host-resolver-rules='MAP * ~NOTFOUND' \
	    "$@" >"$out" 2>"$err"
	st=$?
	rm -rf "$prof"
	return $st
}

printf '<!DOCTYPE html><html lang="en"><title>t</title><p>smoke</p></html>\n' >"$tmp/smoke.html"
if ! browser "$tmp/smoke.dom" "$tmp/smoke.err" --dump-dom "file://$tmp/smoke.html" ||
   ! grep -q smoke "$tmp/smoke.dom"; then
	echo "report: SKIPPED: $chrome does not run headless here, so the HTML reports" \
	     "were NOT checked in a browser:" >&2
	tail -n 5 "$tmp/smoke.err" >&2
	exit 0
fi

# render FILE PAGE [TEXT JSON]: the page, and where BIN plans it, the
# plan's text (the first render) or JSON (the second) from the same run:
# each plan is a CBC search, the job's costliest step under ASan.
both=
if "$bin" plan -h 2>/dev/null | grep -q -- '--report'; then
	how="$bin plan FILE --report OUT"
	both=1
	render() {
		case ${3:-} in
		*.json) "$bin" plan "$1" --report "$2" --format json >"$3" ;;
		?*) "$bin" plan "$1" --report "$2" >"$3" ;;
		*) "$bin" plan "$1" --report "$2" >/dev/null ;;
		esac
	}
else
	how="tests/report/render.c"
	lib=$(dirname "$bin")/libgpushare.a
	cc=${CC:-cc}
	flags="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -I$top/lib"
	libs="$(pkg-config --libs yaml-0.1 libcjson) -lm"
	# A sanitized library needs the sanitizers at link time too.
	# shellcheck disable=SC2086
	if ! $cc $flags -o "$tmp/render" "$here/render.c" "$lib" $libs 2>/dev/null &&
	   ! $cc $flags -fsanitize=address,undefined -o "$tmp/render" "$here/render.c" \
	       "$lib" $libs; then
		echo "report: cannot build tests/report/render.c against $lib" >&2
		exit 1
	fi
	render() { "$tmp/render" -p "$top/profiles" "$1" "$2"; }
fi
echo "report: pages from $how; browser $chrome"

for ex in examples/*.yaml; do
	name=$(basename "$ex" .yaml)
	page=$tmp/$name.html
	if ! render "$ex" "$page" "$tmp/$name.txt" ||
	   ! render "$ex" "$tmp/$name.again.html" "$tmp/$name.json"; then
		bad "$name: rendering failed"
		continue
	fi
	ok
	if cmp -s "$page" "$tmp/$name.again.html"; then ok; else
		bad "$name: two renders differ"
	fi
	if python3 "$here/check.py" static "$page" >"$tmp/$name.static"; then ok; else
		bad "$name: the page itself:" && sed 's/^/    /' "$tmp/$name.static"
	fi

	for shot in desktop:1280,2000 phone:390,2000; do
		png=$tmp/$name.${shot%%:*}.png
		browser "$tmp/shot.out" "$tmp/shot.err" --screenshot="$png" \
		    --window-size="${shot#*:}" "file://$page"
		size=$(wc -c <"$png" 2>/dev/null || echo 0)
		if [ "$size" -gt 10240 ]; then ok; else
			bad "$name: ${shot%%:*} screenshot missing or only $size bytes"
		fi
	done

	dom=$tmp/$name.dom.html
	if ! browser "$dom" "$tmp/$name.log" --enable-logging=stderr --v=0 --dump-dom \
	    "file://$page" || [ ! -s "$dom" ]; then
		bad "$name: chromium --dump-dom failed" && tail -n 5 "$tmp/$name.log"
		continue
	fi
	if grep ':CONSOLE' "$tmp/$name.log" >"$tmp/$name.console"; then
		bad "$name: the browser logged console messages:"
		sed 's/^/    /' "$tmp/$name.console"
	else
		ok
	fi
	if python3 "$here/check.py" dom "$page" "$dom" >"$tmp/$name.dom.diff"; then ok; else
		bad "$name: the browser's DOM differs from the page:"
		sed 's/^/    /' "$tmp/$name.dom.diff"
	fi
	if [ -z "$both" ]; then
		"$bin" plan "$ex" >"$tmp/$name.txt" 2>&1 &&
			"$bin" plan "$ex" --format json >"$tmp/$name.json" 2>&1
	fi
	if python3 "$here/check.py" expect "$tmp/$name.txt" "$tmp/$name.json" "$dom" \
	    >"$tmp/$name.missing"; then ok; else
		bad "$name: figures or names missing from the DOM:"
		sed 's/^/    /' "$tmp/$name.missing"
	fi
done

# The chargeback's page (gpushare cost --report) of the cost fixtures.
cost_page() { # NAME ARGS...: the page, its checks and its figures
	name=$1
	shift
	page=$tmp/$name.html
	if ! "$bin" cost "$@" --report "$page" >/dev/null 2>&1 ||
	   ! "$bin" cost "$@" --report "$tmp/$name.again.html" >/dev/null 2>&1 ||
	   ! "$bin" cost "$@" --format json >"$tmp/$name.json" 2>/dev/null; then
		bad "$name: gpushare cost failed"
		return
	fi
	ok
	if cmp -s "$page" "$tmp/$name.again.html"; then ok; else bad "$name: two renders differ"; fi
	if python3 "$here/check.py" static "$page" >"$tmp/$name.static"; then ok; else
		bad "$name: the page itself:" && sed 's/^/    /' "$tmp/$name.static"
	fi
	browser "$tmp/shot.out" "$tmp/shot.err" --screenshot="$tmp/$name.png" \
	    --window-size=390,2000 "file://$page"
	size=$(wc -c <"$tmp/$name.png" 2>/dev/null || echo 0)
	if [ "$size" -gt 10240 ]; then ok; else bad "$name: screenshot only $size bytes"; fi
	dom=$tmp/$name.dom.html
	if ! browser "$dom" "$tmp/$name.log" --enable-logging=stderr --v=0 --dump-dom \
	    "file://$page" || [ ! -s "$dom" ]; then
		bad "$name: chromium --dump-dom failed"
		return
	fi
	if grep ':CONSOLE' "$tmp/$name.log" >/dev/null; then bad "$name: console messages"; else
		ok
	fi
	if python3 "$here/check.py" dom "$page" "$dom" >"$tmp/$name.dom.diff" &&
	   python3 "$here/check.py" cost "$tmp/$name.json" "$dom" >>"$tmp/$name.dom.diff"; then
		ok
	else
		bad "$name: the browser's DOM:" && sed 's/^/    /' "$tmp/$name.dom.diff"
	fi
}
if "$bin" cost -h >/dev/null 2>&1; then
	fx=$top/tests/fixtures/cost
	cost_page cost-repro --nodes "$fx/nodes.json" --pods "$fx/pods.json" --gpu-weight 90
	cost_page cost-dra --nodes "$fx/dra-nodes.json" --pods "$fx/dra-pods.json" \
	    --claims "$fx/dra-claims.json" --team-label team --spread-idle
fi

if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" &&
		for ex in examples/*.yaml; do
			name=$(basename "$ex" .yaml)
			cp "$tmp/$name.html" "$tmp/$name".*.png "$tmp/$name.dom.html" "$KEEP"/ 2>/dev/null
		done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
