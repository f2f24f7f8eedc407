# The harness of the end-to-end tests, sourced by tests/e2e.sh and
# tests/e2e-part.sh: the counts, a scratch directory ($tmp, removed on
# exit), and ok, bad and expect. The sourcing script sets bin.

pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS DESCRIPTION -- command...
expect() {
	want=$1; what=$2; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	# the text with its wrapped lines joined again (80 columns)
	sed -E ':a;N;$!ba;s/\n {14}([^ ])/ \1/g' "$tmp/out" >"$tmp/flat"
	if [ "$got" = "$want" ]; then ok; else bad "$what: exit $got, want $want"; cat "$tmp/err"; fi
}
