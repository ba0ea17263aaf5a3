#!/bin/sh
# run.sh - golden tests for the gpushare command line.
#
#   sh tests/cli/run.sh BIN [NAME...]
#   UPDATE=1 sh tests/cli/run.sh BIN [NAME...]
#   GS_WRAP='valgrind -q --error-exitcode=97' sh tests/cli/run.sh BIN
#
# NAMEs pick cases (default: all). Each case is cases/NAME.cmd. Its first line holds the arguments that
# follow `gpushare`, shell-quoted (an empty line: no arguments). They may use
# $FIXTURES (tests/cli/fixtures), $TMP (a fresh empty directory per case,
# also the case's working directory and HOME) and $REPO (the source tree).
# Later lines may be
#   # stdin: FILE        feed FILE as standard input (default /dev/null);
#                        relative to cases/, may use the variables above
#   # env: NAME=VALUE    set a variable for the case (repeatable); VALUE is
#                        shell-quoted like the arguments
#   # anything else      a comment
# The expected results are NAME.out (stdout), NAME.err (stderr; missing
# means empty) and NAME.rc (exit status). All three must match exactly.
# Before comparing, the absolute paths of $FIXTURES, $TMP and $REPO in the
# output are written back as those literal strings, so golden files do not
# depend on where the tree lives.
#
# The binary runs under `env -i` with only PATH, HOME, the sanitizer options
# and the case's own variables: GPUSHARE_PROFILES is unset unless the case
# sets it, so the binary finds the profiles beside itself. A sanitizer report
# goes to stderr and so fails the case.
#
# UPDATE=1 writes the expected files of new cases (those with no NAME.out,
# NAME.err or NAME.rc yet) and never touches an existing one: golden files
# are reviewed like code. To re-record a case, delete its expected files.
#
# Quiet on success; each failing case gets a line and unified diffs. The last
# line is "N passed, M failed"; the exit status is 1 when any case failed.

set -u

if [ $# -lt 1 ]; then
	echo "usage: sh tests/cli/run.sh BIN [NAME...]" >&2
	exit 2
fi
bin=$1
shift
case $bin in
/*) ;;
*) bin=$(pwd -P)/$bin ;;
esac
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
	echo "run.sh: '$bin' is not an executable file" >&2
	exit 2
fi

here=$(cd "$(dirname "$0")" && pwd -P) || exit 2
REPO=$(cd "$here/../.." && pwd -P) || exit 2
FIXTURES=$here/fixtures
cases=$here/cases
update=${UPDATE:-0}
[ "$update" = 0 ] && update=

work=$(mktemp -d "${TMPDIR:-/tmp}/gpushare-cli.XXXXXX") || exit 2
work=$(cd "$work" && pwd -P) || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
nl='
'

# Escapes a string for a basic regular expression / a sed replacement.
re_escape() { printf '%s\n' "$1" | sed 's/[]\/$*.^[]/\\&/g'; }

# Writes back absolute paths as $FIXTURES, $TMP and $REPO (longest-nested
# first: the fixtures live inside the repository).
unexpand() {
	sed -e "s/$(re_escape "$FIXTURES")/\$FIXTURES/g" \
	    -e "s/$(re_escape "$TMP")/\$TMP/g" \
	    -e "s/$(re_escape "$REPO")/\$REPO/g" "$1"
}

# diff -u with readable headers: "--- cases/NAME.out" / "+++ actual".
show_diff() {
	diff -u "$1" "$2" | sed -e "1s|^--- .*|--- $3|" -e "2s|^+++ .*|+++ $4|"
}

passed=0
failed=0
if [ $# -gt 0 ]; then
	for n; do
		n=${n##*/}
		set -- "$@" "$cases/${n%.cmd}.cmd"
		shift
	done
else
	set -- "$cases"/*.cmd
	[ -e "$1" ] || { echo "run.sh: no cases in $cases" >&2; exit 2; }
fi

for cmd in "$@"; do
	name=${cmd##*/}
	name=${name%.cmd}
	exp=$cases/$name
	out=$work/$name.out
	err=$work/$name.err
	problems=

	if [ ! -f "$cmd" ]; then
		echo "FAIL $name: no such case ($cmd)"
		failed=$((failed + 1))
		continue
	fi

	TMP=$(mktemp -d "$work/tmp.XXXXXX") && TMP=$(cd "$TMP" && pwd -P) || exit 2

	# Parse the case file: line 1 the arguments, then directives.
	args=
	stdin=/dev/null
	envs=
	bad=
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		if [ $lineno -eq 1 ]; then
			args=$line
			continue
		fi
		case $line in
		'# stdin: '*) stdin=${line#'# stdin: '} ;;
		'# env: '*) envs=$envs${line#'# env: '}$nl ;;
		'#'* | '') ;;
		*) bad="line $lineno is neither a '# stdin:' nor a '# env:' line" ;;
		esac
	done < "$cmd"

	# Run the case in a subshell: the arguments are evaluated as shell words
	# with only FIXTURES, TMP and REPO meant to be expanded. IFS is a newline
	# so that an unquoted $FIXTURES survives a directory name with spaces;
	# globbing is off so that a '*' stays a '*'.
	if [ -z "$bad" ]; then
		rm -f "$work/setup"
		(
			fail() { printf '%s\n' "$*" > "$work/setup"; exit 125; }
			# A quoting error in eval would end this shell: try each
			# string in a throw-away subshell first.
			parses() { (eval "set -- $1") > /dev/null 2>&1; }
			set -f
			IFS=$nl
			# '# env:' words first (NAME=VALUE each), then the binary and
			# its arguments: one argument list for `env -i`.
			set --
			for e in $envs; do
				parses "$e" || fail "cannot parse '# env: $e'"
				eval "set -- \"\$@\" $e"
			done
			for w; do
				case $w in
				[A-Za-z_]*=*) ;;
				*) fail "'$w' in an '# env:' line is not NAME=VALUE" ;;
				esac
			done
			parses "$args" || fail "cannot parse the arguments"
			# GS_WRAP (e.g. valgrind and its options) runs the binary.
			eval "set -- \"\$@\" ${GS_WRAP:-} \"\$bin\" $args"
			in=$(parses "$stdin" && eval "set -- $stdin" && [ $# -eq 1 ] && printf '%s' "$1") ||
				fail "'# stdin: $stdin' must name one file"
			case $in in
			/*) ;;
			*) in=$cases/$in ;;
			esac
			[ -r "$in" ] || fail "cannot read stdin file '$in'"
			cd "$TMP" || fail "cannot enter $TMP"
			exec env -i PATH="$PATH" HOME="$TMP" \
			    ASAN_OPTIONS=detect_leaks=1 \
			    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			    "$@" < "$in"
		) > "$out.raw" 2> "$err.raw"
		rc=$?
		[ -e "$work/setup" ] && bad=$(cat "$work/setup")
	fi
	if [ -n "$bad" ]; then
		echo "FAIL $name: bad case file: $bad"
		failed=$((failed + 1))
		rm -rf "$TMP"
		continue
	fi
	unexpand "$out.raw" > "$out"
	unexpand "$err.raw" > "$err"
	rm -rf "$TMP"

	# A new case: record it under UPDATE=1, else fail.
	if [ ! -e "$exp.out" ] && [ ! -e "$exp.err" ] && [ ! -e "$exp.rc" ]; then
		if [ -n "$update" ]; then
			cp "$out" "$exp.out"
			[ -s "$err" ] && cp "$err" "$exp.err"
			echo "$rc" > "$exp.rc"
			echo "NEW  $name: wrote $name.out$([ -s "$err" ] && echo ", $name.err"), $name.rc (exit $rc); review them"
			passed=$((passed + 1))
		else
			echo "FAIL $name: no expected files (record them with UPDATE=1, then review)"
			failed=$((failed + 1))
		fi
		continue
	fi

	if [ -e "$exp.rc" ]; then
		want_rc=$(sed -n '1p' "$exp.rc")
		[ "$want_rc" = "$rc" ] || problems="$problems, exit status $rc (expected $want_rc)"
	else
		problems="$problems, $name.rc missing"
	fi
	if [ -e "$exp.out" ]; then
		cmp -s "$exp.out" "$out" || problems="$problems, stdout differs"
	else
		problems="$problems, $name.out missing"
	fi
	if [ -e "$exp.err" ]; then
		cmp -s "$exp.err" "$err" || problems="$problems, stderr differs"
	elif [ -s "$err" ]; then
		problems="$problems, stderr differs"
	fi

	if [ -z "$problems" ]; then
		passed=$((passed + 1))
		continue
	fi
	failed=$((failed + 1))
	echo "FAIL $name: ${problems#, }"
	if [ -e "$exp.out" ] && ! cmp -s "$exp.out" "$out"; then
		show_diff "$exp.out" "$out" "cases/$name.out" "stdout"
	fi
	if [ -e "$exp.err" ]; then
		cmp -s "$exp.err" "$err" || show_diff "$exp.err" "$err" "cases/$name.err" "stderr"
	elif [ -s "$err" ]; then
		show_diff /dev/null "$err" "cases/$name.err (missing: empty)" "stderr"
	fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
