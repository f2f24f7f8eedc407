#!/bin/bash
# make check-oom: fail the Nth allocation, for every N, over a representative
# run of `analyze` and of `ingest`, with the AddressSanitizer build and the
# tests/failmalloc.c shim. Each run must end cleanly: either it succeeds
# despite the failure with the same output as without it (the allocation
# was optional, e.g. PCRE2's JIT), or it prints an out-of-memory error and
# exits 2; never a crash, a sanitizer report or a leak, never another error
# in place of out-of-memory, and never other output.
#
#   scripts/check-oom.sh OOMLENS SHIM      (make check-oom passes both)
#   OOM_STEP=K                             try every Kth N only (quicker)
#
# Prints a table per command and the first lines of each bad run; exit 1
# when any run was bad.
set -u
bin=$1 shim=$2
step=${OOM_STEP:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oomlens-oom.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:fast_unwind_on_malloc=0:exitcode=99
export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99
unset OOMLENS_NO_JIT # JIT on, as users run it
bad=0

# run NAME COMMAND...: COMMAND with the shim, once to count, then per N.
run() {
	local name=$1 n total ok=0 tolerated=0 wrong=0 crash=0 rc
	shift
	rm -f "$tmp/db"*
	if ! FAILMALLOC_COUNT=$tmp/count LD_PRELOAD=$shim "$@" >"$tmp/want" 2>"$tmp/err"; then
		echo "check-oom: $name fails without a failed allocation:" >&2
		head -5 "$tmp/err" >&2
		bad=1
		return
	fi
	total=$(cat "$tmp/count")
	for ((n = 1; n <= total; n += step)); do
		rm -f "$tmp/db"*
		FAILMALLOC_NTH=$n LD_PRELOAD=$shim "$@" >"$tmp/got" 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
			tolerated=$((tolerated + 1))
		elif [ $rc -eq 0 ]; then
			wrong=$((wrong + 1))
			echo "  $name N=$n: succeeded with other output:"
			diff "$tmp/want" "$tmp/got" | head -6 | sed 's/^/    /'
		elif [ $rc -eq 2 ] && grep -q 'out of memory' "$tmp/err" &&
			! grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
			ok=$((ok + 1))
		elif [ $rc -eq 2 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
			wrong=$((wrong + 1))
			echo "  $name N=$n: not an out-of-memory error: $(head -c 300 "$tmp/err")"
		else
			crash=$((crash + 1))
			echo "  $name N=$n: exit $rc:"
			grep -m 12 -E 'ERROR|SUMMARY|#[0-9] |runtime error|Direct leak|Indirect leak' "$tmp/err" | sed 's/^/    /'
		fi
	done
	printf '%-26s %6s %6s %9s %6s %6s\n' "$name" "$total" "$ok" "$tolerated" "$wrong" "$crash"
	[ $((wrong + crash)) -eq 0 ] || bad=1
}

printf '%-26s %6s %6s %9s %6s %6s\n' "run" "allocs" "nomem" "tolerated" "wrong" "crash"
cd "$root" || exit 1
run "analyze text" "$bin" analyze fixtures/demo/rfc-forkbomb.log
# names with control characters: the text renderer escapes them into a pool
printf '%b\n' \
	'[ 5.000000] a\033[31mb invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0' \
	'[ 5.000001] Killed process 7 (x\033]0;t\007y) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB' \
	>"$tmp/escaped.log"
run "analyze text, escaped" "$bin" analyze "$tmp/escaped.log"
run "analyze json, all models" "$bin" analyze --format json --model all \
	fixtures/generated/memcg.6.1.dmesg-T-de.log
run "ingest" "$bin" ingest --quiet --db "$tmp/db" fixtures/demo/rhel7-storm.log
[ $bad -eq 0 ] && echo "check-oom: every run ended cleanly" ||
	echo "check-oom: some runs did not end cleanly (above)"
exit $bad
