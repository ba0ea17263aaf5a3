#!/bin/sh
# kubectl.sh BIN - `gpushare import/plan --context/--kubeconfig` with the
# real kubectl against a fake API server (kubectl.py) on 127.0.0.1, on a
# free port: the workload file must equal the one the same lists give as
# files, and kubectl's failures (a server error, a refused connection, an
# unknown context, no kubectl at all) must each be one error line with a
# non-zero exit and no output. Fake kubectl scripts (KUBECTL=...) check
# the arguments and the cases a real server cannot be made to give: output
# cut short, with and without a failing exit. Prints SKIP without kubectl
# or python3.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
fix=$top/tests/fixtures/import
for t in kubectl python3; do
	command -v $t >/dev/null 2>&1 || { echo "live kubectl: SKIP (no $t)"; exit 0; }
done
tmp=$(mktemp -d /tmp/gpushare-live-kubectl.XXXXXX)
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail=0 n=0
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL live kubectl: $*"; }

# kubectl keeps its discovery cache under $HOME/.kube.
export HOME=$tmp
unset KUBECONFIG KUBECTL
python3 "$top/tests/live/kubectl.py" --nodes "$fix/nodes.json" --pods "$fix/pods.json" \
	--port-file "$tmp/port" --page 7 &
server=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/port" ] || { echo "live kubectl: the fake API server did not start"; exit 1; }
port=$(cat "$tmp/port")
closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cat > "$tmp/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: http://127.0.0.1:$port
- name: broken
  cluster:
    server: http://127.0.0.1:$port/fail500
- name: refused
  cluster:
    server: http://127.0.0.1:$closed
contexts:
- name: fake
  context: {cluster: fake, user: nobody}
- name: broken
  context: {cluster: broken, user: nobody}
- name: refused
  context: {cluster: refused, user: nobody}
current-context: fake
users:
- name: nobody
  user: {}
KC

# The same lists as files: what the live import must give.
"$bin" import --nodes "$fix/nodes.json" --pods "$fix/pods.json" >"$tmp/want.out" 2>"$tmp/want.err"
"$bin" import --nodes "$fix/nodes.json" --pods "$fix/pods.json" -r >"$tmp/want.rep" 2>&1

same() { # NAME ARGS... : stdout and stderr equal the files' import
	name=$1; shift
	if "$bin" import "$@" >"$tmp/got.out" 2>"$tmp/got.err" &&
	    cmp -s "$tmp/got.out" "$tmp/want.out" && cmp -s "$tmp/got.err" "$tmp/want.err"; then
		ok
	else
		bad "$name: not the files' workload file"
		diff "$tmp/want.out" "$tmp/got.out" | head -5
		diff "$tmp/want.err" "$tmp/got.err" | head -5
	fi
}
same "--kubeconfig" --kubeconfig "$tmp/kubeconfig"
same "--kubeconfig --context" --kubeconfig "$tmp/kubeconfig" --context fake
KUBECONFIG=$tmp/kubeconfig same "KUBECONFIG, --context" --context fake
if "$bin" import --kubeconfig "$tmp/kubeconfig" -r >"$tmp/got.rep" 2>&1 &&
    cmp -s "$tmp/got.rep" "$tmp/want.rep"; then ok; else bad "--report differs"; fi
# cost also asks for ResourceClaims; this API server has no DRA, which is
# a warning, and the bill is the files' bill.
"$bin" cost --nodes "$fix/nodes.json" --pods "$fix/pods.json" --format json >"$tmp/cost.want" 2>/dev/null
if "$bin" cost --kubeconfig "$tmp/kubeconfig" --format json >"$tmp/cost.got" 2>"$tmp/cost.err" &&
    cmp -s "$tmp/cost.got" "$tmp/cost.want" &&
    grep -q "kubectl get resourceclaims: .*resource type.*no DRA claims read" "$tmp/cost.err"
then ok; else bad "cost --kubeconfig"; cat "$tmp/cost.err"; diff "$tmp/cost.want" "$tmp/cost.got" | head -5; fi
if "$bin" plan --kubeconfig "$tmp/kubeconfig" --context fake >"$tmp/plan.out" 2>&1 &&
    grep -q "the cluster in fake" "$tmp/plan.out"; then ok
else bad "plan --context"; head -5 "$tmp/plan.out"; fi

fails() { # NAME WANT ARGS... : exit 2, no stdout, stderr exactly one line WANT (a grep -E)
	name=$1 want=$2; shift 2
	"$bin" "$@" >"$tmp/f.out" 2>"$tmp/f.err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/f.out" ] && [ "$(wc -l <"$tmp/f.err")" -eq 1 ] &&
	    grep -Eq "^$want\$" "$tmp/f.err"; then
		ok
	else
		bad "$name: exit $rc, stderr:"; cat "$tmp/f.err"; head -3 "$tmp/f.out"
	fi
}
fails "server error" \
	'gpushare: kubectl get pods: error: Error from server \(InternalError\): etcdserver: request timed out' \
	import --kubeconfig "$tmp/kubeconfig" --context broken
fails "refused" \
	"gpushare: kubectl get nodes: error: .*127\\.0\\.0\\.1:$closed.*refused.*" \
	import --kubeconfig "$tmp/kubeconfig" --context refused
fails "unknown context" \
	'gpushare: kubectl get nodes: error: .*context.*nosuch.*' \
	plan --kubeconfig "$tmp/kubeconfig" --context nosuch
export KUBECTL="$tmp/none"
fails "no kubectl" \
	"gpushare: kubectl get nodes: error: cannot run '$tmp/none': No such file or directory \\(install kubectl, or name it in KUBECTL\\)" \
	import --context fake
unset KUBECTL
"$bin" import --kubeconfig "$tmp/kubeconfig" --context broken -o "$tmp/w.yaml" 2>/dev/null
if [ -e "$tmp/w.yaml" ]; then bad "a failed import wrote its --output"; else ok; fi

# Fake kubectls: the arguments, exactly; output cut short after 9000 bytes,
# exiting 0 (the reader's error) or 1 (kubectl's error wins).
cat > "$tmp/fake-kubectl" <<'SH'
#!/bin/sh
for a; do printf '[%s]' "$a"; done >> "$FAKE_ARGS"; echo >> "$FAKE_ARGS"
case "$*" in
*" get nodes -o json") cat "$FAKE_NODES" ;;
*" get pods -A -o json")
	head -c 9000 "$FAKE_PODS"
	[ "$FAKE_STATUS" = 0 ] || echo "error: unexpected EOF" >&2
	exit "$FAKE_STATUS" ;;
*) echo "error: unexpected arguments: $*" >&2; exit 1 ;;
esac
SH
chmod +x "$tmp/fake-kubectl"
export FAKE_ARGS=$tmp/args FAKE_NODES=$fix/nodes.json FAKE_PODS=$fix/pods.json FAKE_STATUS=0
export KUBECTL="$tmp/fake-kubectl"
fails "cut short" \
	'gpushare: kubectl get pods:255:39: error: the file ends inside items\[6\] \(truncated\?\)' \
	import --kubeconfig "k c" --context "a b"
printf '%s\n' "[--kubeconfig][k c][--context][a b][get][nodes][-o][json]" \
	"[--kubeconfig][k c][--context][a b][get][pods][-A][-o][json]" >"$tmp/args.want"
if cmp -s "$tmp/args" "$tmp/args.want"; then ok; else bad "kubectl's arguments:"; cat "$tmp/args"; fi
FAKE_STATUS=1
fails "cut short, failing" 'gpushare: kubectl get pods: error: unexpected EOF' \
	import --context x

echo "live kubectl: $n checks, $fail failed"
[ "$fail" -eq 0 ]
