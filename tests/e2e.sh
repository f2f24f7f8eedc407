#!/bin/sh
# End-to-end tests of the oomlens command: exit codes, error messages, bad
# input, and the golden text/JSON reports of fixtures/golden/.
# usage: tests/e2e.sh ./oomlens
set -u
bin=${1:-./oomlens}
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
	if [ "$got" = "$want" ]; then ok; else bad "$what: exit $got, want $want"; cat "$tmp/err"; fi
}

expect 0 "help" -- "$bin" --help
expect 0 "analyze help" -- "$bin" analyze --help
expect 2 "no command" -- "$bin"
expect 2 "unknown command" -- "$bin" frobnicate
expect 2 "bad format" -- "$bin" analyze --format xml fixtures/demo/rhel7-storm.log
expect 0 "incidents found" -- "$bin" analyze fixtures/demo/rhel7-storm.log
: >"$tmp/empty"
expect 1 "empty file" -- "$bin" analyze "$tmp/empty"
expect 2 "missing file" -- "$bin" analyze "$tmp/nope.log"
grep -q "cannot read '$tmp/nope.log': No such file or directory" "$tmp/err" && ok || bad "missing file message names the file"
expect 2 "directory" -- "$bin" analyze "$tmp"
grep -q "is a directory" "$tmp/err" && ok || bad "directory message"
if [ "$(id -u)" != 0 ]; then
	echo x >"$tmp/unreadable"; chmod 000 "$tmp/unreadable"
	expect 2 "unreadable" -- "$bin" analyze "$tmp/unreadable"
fi
# standard input, and a missing file among good ones still reports the good
expect 0 "stdin" -- sh -c "\"$bin\" analyze - < fixtures/demo/rhel7-storm.log"
expect 2 "one bad file of two" -- "$bin" analyze "$tmp/nope.log" fixtures/demo/rhel7-storm.log
grep -q "Incident 1" "$tmp/out" && ok || bad "good file reported beside a bad one"

# Bad input: garbage, NUL bytes, a 100 MB line; bounded memory, no crash.
head -c 3000000 /dev/urandom >"$tmp/garbage"
expect 1 "binary garbage" -- "$bin" analyze "$tmp/garbage"
printf 'a\0b\0[ 1.000000] x invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\0\n' >"$tmp/nul"
expect 0 "NUL bytes" -- "$bin" analyze --format json "$tmp/nul"
{ head -c 104857600 /dev/zero | tr '\0' 'a'; echo; cat fixtures/demo/rhel7-storm.log; } >"$tmp/longline"
# (a sanitizer's shadow memory needs a huge address space: no limit there)
if [ -n "${E2E_NO_VMLIMIT:-}" ]; then
	"$bin" analyze "$tmp/longline" >"$tmp/out" 2>"$tmp/err"
else
	( ulimit -v 400000 2>/dev/null; exec "$bin" analyze "$tmp/longline" ) >"$tmp/out" 2>"$tmp/err"
fi
[ $? = 0 ] && grep -q "Incident 1" "$tmp/out" && ok || bad "100 MB line under a 400 MB address-space limit"
rm -f "$tmp/longline" "$tmp/garbage"

# compressed files and tar archives (a sosreport) are read without extracting
gzip -c fixtures/demo/rhel7-storm.log >"$tmp/m.log.gz"
expect 0 "gzip" -- "$bin" analyze "$tmp/m.log.gz"
grep -q "Killed:     4711 (java)" "$tmp/out" && ok || bad "gzip content"
if command -v xz >/dev/null 2>&1; then
	mkdir -p "$tmp/sosreport-db7-1/var/log" "$tmp/sosreport-db7-1/etc"
	cp fixtures/demo/rhel7-storm.log "$tmp/sosreport-db7-1/var/log/messages"
	cp fixtures/demo/rfc-forkbomb.log "$tmp/sosreport-db7-1/etc/not-a-log"
	(cd "$tmp" && tar cJf sos.tar.xz sosreport-db7-1)
	expect 0 "sosreport" -- "$bin" analyze "$tmp/sos.tar.xz"
	[ "$(grep -c '^Incident' "$tmp/out")" = 3 ] && ok || bad "sosreport: 3 incidents from var/log/messages only"
fi
printf 'not gzip at all' | gzip -c | head -c 20 >"$tmp/cut.gz"
expect 2 "truncated gzip" -- "$bin" analyze "$tmp/cut.gz"

# inputs the fuzzer's campaign turned up (bench/fuzz/crashes): fast, no crash
for f in bench/fuzz/crashes/*; do
	case "$f" in *.md) continue ;; esac
	( ulimit -t 10 2>/dev/null; exec "$bin" analyze "$f" ) >"$tmp/out" 2>"$tmp/err"
	case $? in 0|1) ok ;; *) bad "fuzz reproducer $f"; cat "$tmp/err" ;; esac
done

# JSON is valid JSON (when a JSON parser is on the machine)
if command -v python3 >/dev/null 2>&1; then
	for f in fixtures/demo/*.log "$tmp/nul"; do
		"$bin" analyze --format json "$f" | python3 -c 'import json,sys; json.load(sys.stdin)' && ok || bad "invalid JSON for $f"
	done
fi

# Golden outputs: fixtures/golden/NAME.{txt,json} for fixtures/demo/NAME.log
for g in fixtures/golden/*.txt; do
	[ -e "$g" ] || continue
	name=$(basename "$g" .txt)
	"$bin" analyze "fixtures/demo/$name.log" >"$tmp/got.txt"
	diff -u "$g" "$tmp/got.txt" >"$tmp/diff" && ok || { bad "golden text $name"; head -20 "$tmp/diff"; }
	"$bin" analyze --format json "fixtures/demo/$name.log" >"$tmp/got.json"
	diff -u "fixtures/golden/$name.json" "$tmp/got.json" >"$tmp/diff" && ok || { bad "golden json $name"; head -20 "$tmp/diff"; }
done

echo "e2e: $pass passed, $fail failed"
[ "$fail" = 0 ]
