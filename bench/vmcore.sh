#!/bin/sh
# bench/vmcore.sh - the vmcore process table against crash's `ps`, in one run.
#
# usage: sh bench/vmcore.sh OOMLENS VMLINUX VMCORE [RESULTS]
#    or: make bench-vmcore VMLINUX=... VMCORE=...
#
# Times `oomlens vmcore --ps` and `crash -s VMLINUX VMCORE` fed "ps" and
# "exit" on the same files: one warm-up run each, then three runs; the
# median counts. Both load the same vmlinux (crash through gdb, oomlens
# through its one-pass DWARF index). The target (issue 5): oomlens at
# least 10x faster. Without crash installed, or without the files, it says
# so and exits 0 (the real dumps come from fixtures/qemu/vmcore.sh).
set -eu

[ $# -ge 3 ] || { echo "usage: sh bench/vmcore.sh OOMLENS VMLINUX VMCORE [RESULTS]" >&2; exit 2; }
oomlens=$1 vmlinux=$2 vmcore=$3 results=${4:-}

if [ ! -r "$vmlinux" ] || [ ! -r "$vmcore" ]; then
	echo "bench-vmcore: skipped: no $vmlinux or $vmcore (make them with fixtures/qemu/vmcore.sh)"
	exit 0
fi

now() { date +%s.%N; }
# the wall time of one run of "$@", stdin from $in
timed() {
	t0=$(now)
	"$@" <"$in" >/dev/null 2>&1 || true
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}
median3() { printf '%s\n%s\n%s\n' "$1" "$2" "$3" | sort -n | sed -n 2p; }

in=/dev/null
timed "$oomlens" vmcore --ps --vmlinux "$vmlinux" "$vmcore" >/dev/null
a=$(timed "$oomlens" vmcore --ps --vmlinux "$vmlinux" "$vmcore")
b=$(timed "$oomlens" vmcore --ps --vmlinux "$vmlinux" "$vmcore")
c=$(timed "$oomlens" vmcore --ps --vmlinux "$vmlinux" "$vmcore")
ours=$(median3 "$a" "$b" "$c")
procs=$("$oomlens" vmcore --ps --vmlinux "$vmlinux" "$vmcore" 2>/dev/null | tail -n +3 | wc -l)

if ! command -v crash >/dev/null 2>&1; then
	line="vmcore ps: oomlens ${ours}s ($procs tasks); crash not installed, no baseline"
else
	in=$(mktemp)
	printf 'ps\nexit\n' >"$in"
	timed crash -s "$vmlinux" "$vmcore" >/dev/null
	a=$(timed crash -s "$vmlinux" "$vmcore")
	b=$(timed crash -s "$vmlinux" "$vmcore")
	c=$(timed crash -s "$vmlinux" "$vmcore")
	rm -f "$in"
	theirs=$(median3 "$a" "$b" "$c")
	ratio=$(echo "$theirs $ours" | awk '{ printf "%.1f", $1 / $2 }')
	verdict=$(echo "$ratio" | awk '{ print ($1 >= 10) ? "PASS" : "MISSED" }')
	line="vmcore ps: oomlens ${ours}s ($procs tasks) vs crash -s ps ${theirs}s: ${ratio}x faster (>= 10x wanted: $verdict)"
fi
echo "$line"
[ -z "$results" ] || echo "$line" >>"$results"
