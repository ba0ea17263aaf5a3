#!/bin/sh
# run.sh BIN - the generated bash completion completes commands, options,
# option values, GPU models, instance types and emit kinds.
set -u
bin=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" && ln -s "$bin" "$tmp/bin/gpushare"
"$bin" completion bash > "$tmp/c.bash" || exit 1
pass=0 fail=0
try() { # expected words... -- COMP_WORDS...
	want=""
	while [ "$1" != -- ]; do want="$want${want:+ }$1"; shift; done
	shift
	got=$(PATH="$tmp/bin:$PATH" bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpushare; echo "${COMPREPLY[*]}"' "$tmp/c.bash" "$@")
	if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL completion of '$*': got '$got', want '$want'"; fi
}
try plan -- gpushare pl
try --format --force -- gpushare plan --for
try json -- gpushare plan --format j
try A100-SXM4-40GB A100-SXM4-80GB -- gpushare mig A100-S
try p3.2xlarge p3.8xlarge p3.16xlarge -- gpushare savings --instance p3.
try mig-config -- gpushare emit mi
try on-demand -- gpushare savings --pricing on
try cost -- gpushare cos
try --spread-idle -- gpushare cost --spr
try namespace -- gpushare cost --by n
try usage -- gpushare cost --basis u
try compute -- gpushare cost --mig-share c
try always -- gpushare gpus --color al
"$bin" completion zsh | head -1 | grep -q '^#compdef gpushare' && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL zsh script header"; }
echo "completion: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
