#!/bin/sh
# Runs parts of the end-to-end tests (tests/e2e-*.sh, each sourced by
# tests/e2e.sh) alone against a binary: make check-tsan runs the ingest
# parts so under ThreadSanitizer.
# usage: tests/e2e-part.sh BIN tests/e2e-X.sh...
set -u
bin=$1
shift
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# as tests/e2e.sh's expect()
expect() {
	want=$1; what=$2; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	sed -E ':a;N;$!ba;s/\n {14}([^ ])/ \1/g' "$tmp/out" >"$tmp/flat"
	if [ "$got" = "$want" ]; then ok; else bad "$what: exit $got, want $want"; cat "$tmp/err"; fi
}
for part in "$@"; do
	. "$part"
done
echo "e2e parts: $pass passed, $fail failed"
[ "$fail" = 0 ]
