#!/bin/sh
# bench/floor.sh - `make bench-floor`: SQLite's floor for P2 with the store
# oomlens has and with two smaller ones (bench/README.md).
#
# usage: sh bench/floor.sh OOMLENS STOREFLOOR DENSE
#
# Ingests DENSE once, makes the variants with the SQL files in bench/floor/
# and times STOREFLOOR on each: one warm-up, then the median of three.
set -eu

if [ $# -ne 3 ]; then
	echo "usage: sh bench/floor.sh OOMLENS STOREFLOOR DENSE" >&2
	exit 2
fi
oomlens=$1 floor=$2 dense=$3
here=$(dirname "$0")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/oomlens-floor.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

die() {
	echo "bench-floor: $*" >&2
	exit 1
}

command -v sqlite3 >/dev/null || die "needs the sqlite3 shell (Debian package sqlite3)"
echo "bench-floor: ingesting $dense" >&2
"$oomlens" ingest --db "$tmp/store.db" --quiet "$dense" || die "ingest failed"
for v in packed tasks-only; do
	cp "$tmp/store.db" "$tmp/$v.db"
	sqlite3 "$tmp/$v.db" <"$here/floor/$v.sql" || die "$v.sql failed"
done

# median DB: the median store time of three runs after a warm-up; sets
# med, runs and rows (task rows stored)
median() {
	"$floor" "$1" "$tmp/out.db" >/dev/null || die "$floor $1 failed"
	runs=
	for _ in 1 2 3; do
		line=$("$floor" "$1" "$tmp/out.db") || die "$floor $1 failed"
		t=${line#store=}
		runs="$runs ${t%% *}"
		rows=${line#*task_rows=}
		rows=${rows%% *}
	done
	# shellcheck disable=SC2086 # one time per line
	med=$(printf '%s\n' $runs | sort -n | sed -n 2p)
}

printf '%-12s %-10s %-12s %-13s %s\n' store "floor (s)" "task rows/s" \
	"500000 rows/s" "runs (s)"
for v in store packed tasks-only; do
	echo "bench-floor: $v" >&2
	median "$tmp/$v.db"
	awk -v v="$v" -v med="$med" -v rows="$rows" -v runs="$runs" 'BEGIN {
		r = rows / med
		printf "%-12s %-10.3f %-12.0f %-13s%s\n", v, med, r,
			(r >= 500000) ? "reachable" : "out of reach", runs
	}'
done
