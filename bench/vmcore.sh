#!/bin/sh
# bench/vmcore.sh - the vmcore process table against crash's `ps`, in one
# run: every dump format, every type source, and crash, in one table.
#
# usage: sh bench/vmcore.sh OOMLENS VMLINUX VMCORE [RESULTS]
#    or: make bench-vmcore [VMLINUX=...] [VMCORE=...] [CRASH=...]
#
# VMCORE is the lab's ELF dump NAME.elf (fixtures/qemu/vmcore.sh); its
# siblings NAME.kdump (QEMU's flattened kdump) and NAME.reassembled.kdump
# (a normal compressed kdump) are measured too when they are there. For
# each format it times `oomlens vmcore --ps` with the vmlinux's DWARF
# (--vmlinux) and with the dump's own BTF and kallsyms (no --vmlinux), and
# `crash -s VMLINUX DUMP` fed "ps" and "exit": one warm-up run each, then
# three; the median wall time counts, and the peak RSS (GNU time's %M) of
# the median run. crash is $CRASH, else `crash` on the PATH (Debian's crash
# package); where it is missing or cannot read a dump, its cells say so.
#
# Targets (issue 14): oomlens >= 10x faster than crash with either source;
# BTF far below 0.5 s; peak RSS <= 64 MB with BTF, <= 128 MB with DWARF.
# Without the files it says so and exits 0.
set -eu

[ $# -ge 3 ] || { echo "usage: sh bench/vmcore.sh OOMLENS VMLINUX VMCORE [RESULTS]" >&2; exit 2; }
oomlens=$1 vmlinux=$2 vmcore=$3 results=${4:-}
crash=${CRASH:-crash}

if [ ! -r "$vmlinux" ] || [ ! -r "$vmcore" ]; then
	echo "bench-vmcore: skipped: no $vmlinux or $vmcore (make them with fixtures/qemu/vmcore.sh)"
	exit 0
fi
gtime=/usr/bin/time
[ -x "$gtime" ] || gtime=""
command -v "$crash" >/dev/null 2>&1 || crash=""

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'ps\nexit\n' >"$tmp/crash.in"
: >"$tmp/none.in"

# one IN CMD...: "SECONDS KB RC CPU" of one run of CMD with stdin from IN
# (wall seconds, peak RSS, exit status, user + system seconds)
one() {
	in=$1
	shift
	if [ -n "$gtime" ]; then
		"$gtime" -f '%e %M %U %S' -o "$tmp/t" "$@" <"$in" >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
		# GNU time's own "Command exited with non-zero status" line first
		tail -n 1 "$tmp/t" | awk -v rc="$rc" '{ printf "%s %s %s %.2f\n", $1, $2, rc, $3 + $4 }'
	else
		t0=$(date +%s.%N)
		"$@" <"$in" >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
		t1=$(date +%s.%N)
		echo "$t0 $t1 $rc" | awk '{ printf "%.2f - %s -\n", $2 - $1, $3 }'
	fi
}
# measure IN CMD...: warm-up, then the median of three: "SECONDS KB RC CPU"
measure() {
	one "$@" >/dev/null
	{ one "$@"; one "$@"; one "$@"; } | sort -n | sed -n 2p
}

row() { # FORMAT SOURCE SECONDS CPU KB NOTE
	printf '%-16s %-6s %8s %8s %9s  %s\n' "$1" "$2" "$3" "$4" "$5" "$6"
}
base=${vmcore%.elf}
table() {
echo "bench-vmcore: oomlens vmcore --ps vs crash -s ps ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
row format source "wall s" "cpu s" "peak KB" "x faster than crash (wall) / verdict"
for f in "$vmcore" "$base.kdump" "$base.reassembled.kdump"; do
	[ -r "$f" ] || continue
	case $f in
	*.reassembled.kdump) fmt=kdump ;;
	*.kdump) fmt="flattened kdump" ;;
	*) fmt=elf ;;
	esac
	set -- $(measure "$tmp/none.in" "$oomlens" vmcore --ps --vmlinux "$vmlinux" "$f")
	dw_s=$1 dw_kb=$2 dw_cpu=$4
	tasks=$(tail -n +3 "$tmp/out" | wc -l)
	set -- $(measure "$tmp/none.in" "$oomlens" vmcore --ps "$f")
	bt_s=$1 bt_kb=$2 bt_rc=$3 bt_cpu=$4
	if [ -n "$crash" ]; then
		set -- $(measure "$tmp/crash.in" "$crash" -s "$vmlinux" "$f")
		cr_s=$1 cr_kb=$2 cr_cpu=$4
		# crash prints a header line and a row per task
		cr_tasks=$(grep -c '^[> ] *[0-9]' "$tmp/out" || true)
		if [ "$cr_tasks" -lt 2 ]; then
			cr_note="crash read no process table ($(head -c 100 "$tmp/err" | tr '\n' ' '))"
			cr_s=""
		else
			cr_note="$cr_tasks tasks"
		fi
	else
		cr_s="" cr_kb="-" cr_cpu="-" cr_note="crash not installed (Debian's crash package, or CRASH=path)"
	fi
	for src in dwarf btf; do
		if [ $src = dwarf ]; then s=$dw_s kb=$dw_kb cpu=$dw_cpu lim=131072; else s=$bt_s kb=$bt_kb cpu=$bt_cpu lim=65536; fi
		if [ $src = btf ] && [ "$bt_rc" -gt 1 ]; then
			row "$fmt" $src "$s" "$cpu" "$kb" "error: $(head -c 120 "$tmp/err")"
			continue
		fi
		if [ -n "$cr_s" ]; then
			v=$(echo "$cr_s $s $kb $lim $src" | awk '{ r = $1 / ($2 > 0 ? $2 : 0.01);
				ok = r >= 10 && $3 <= $4 && ($5 != "btf" || $2 < 0.5);
				printf "%.1fx, %s", r, ok ? "PASS" : "MISSED" }')
		else
			v=$(echo "$s $kb $lim $src" | awk '{ ok = $2 <= $3 && ($4 != "btf" || $1 < 0.5);
				printf "no crash baseline; memory/time %s", ok ? "PASS" : "MISSED" }')
		fi
		row "$fmt" $src "$s" "$cpu" "$kb" "$v ($tasks tasks)"
	done
	row "$fmt" crash "${cr_s:--}" "$cr_cpu" "$cr_kb" "$cr_note"
done
}
table | tee "$tmp/table"
echo "targets: >= 10x faster than crash; BTF < 0.5 s; peak RSS <= 64 MB (BTF), <= 128 MB (DWARF)"
[ -z "$results" ] || cat "$tmp/table" >>"$results"
