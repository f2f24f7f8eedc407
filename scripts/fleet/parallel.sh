#!/bin/sh
# scripts/fleet/parallel.sh: the Slurm recipe without Slurm, with GNU
# parallel: ingest a list of files in shards, at once on this machine or
# over ssh on several, then merge them (README.md, "Many machines").
#
# usage: parallel.sh [-n NSHARDS] [-j JOBS] [-S SSHLOGINS] [-o OUTDIR]
#                    [-b OOMLENS] LIST OUT.db
#
#   LIST        files to ingest, one absolute path a line
#   OUT.db      the merged database, written here
#   -n NSHARDS  shards (default: 4 x JOBS)
#   -j JOBS     shards at once per host (default: half the cores here:
#               each ingest runs a parser and a writer thread)
#   -S LOGINS   hosts, as parallel's --sshlogin ("8/node1,8/node2,:"; ":"
#               is this machine); the files, OOMLENS and OUTDIR must be at
#               the same paths on every host (a shared file system)
#   -o OUTDIR   shard databases (default: OUT.db's folder + /shards)
#   -b OOMLENS  the oomlens binary (default: the one on PATH)
#
# Stops at the first shard that fails; run it again once fixed (ingest and
# merge are idempotent).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n='' jobs='' logins='' outdir='' oomlens=''
while getopts n:j:S:o:b: opt; do
	case $opt in
	n) n=$OPTARG ;;
	j) jobs=$OPTARG ;;
	S) logins=$OPTARG ;;
	o) outdir=$OPTARG ;;
	b) oomlens=$OPTARG ;;
	*) sed -n '6,19p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '6,19p' "$0" >&2; exit 2; }
list=$1 out=$2
command -v parallel >/dev/null || { echo "parallel.sh: needs GNU parallel (Debian: parallel)" >&2; exit 2; }
[ -r "$list" ] || { echo "parallel.sh: cannot read '$list'" >&2; exit 2; }
oomlens=${oomlens:-$(command -v oomlens || :)}
[ -n "$oomlens" ] || { echo "parallel.sh: no oomlens on PATH: give -b" >&2; exit 2; }
case $oomlens in /*) ;; *) oomlens=$(cd "$(dirname "$oomlens")" && pwd)/$(basename "$oomlens") ;; esac
case $list in /*) ;; *) list=$(pwd)/$list ;; esac
outdir=${outdir:-$(dirname "$out")/shards}
case $outdir in /*) ;; *) outdir=$(pwd)/$outdir ;; esac
cores=$(getconf _NPROCESSORS_ONLN)
jobs=${jobs:-$(( cores > 1 ? cores / 2 : 1 ))}
n=${n:-$((4 * jobs))}
mkdir -p "$outdir"
rm -f "$outdir"/shard-*.db

set -- --will-cite --halt now,fail=1 -j "$jobs"
[ -z "$logins" ] || set -- "$@" --sshlogin "$logins"
seq 0 $((n - 1)) |
	parallel "$@" sh "$here/ingest-shard.sh" "$list" "$n" {} "$outdir" "$oomlens"
set --
i=0
while [ "$i" -lt "$n" ]; do
	set -- "$@" "$outdir/shard-$i.db"
	i=$((i + 1))
done
"$oomlens" merge --db "$out" "$@"
