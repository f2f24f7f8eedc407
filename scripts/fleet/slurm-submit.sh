#!/bin/sh
# scripts/fleet/slurm-submit.sh: ingest a list of files on a Slurm cluster,
# one shard per array task, then merge the shards (README.md, "Many
# machines").
#
# usage: slurm-submit.sh [-n NSHARDS] [-o OUTDIR] [-b OOMLENS] [-w]
#                        LIST OUT.db [SBATCH_OPTION...]
#
#   LIST        files to ingest, one absolute path a line, readable from
#               every node (the same paths one ingest would be given)
#   OUT.db      the merged database (on a file system the merge job sees)
#   -n NSHARDS  array tasks (default 16); a task ingests every NSHARDS-th
#               file of LIST on its node's local scratch (TMPDIR)
#   -o OUTDIR   where the shards are copied, shared by the nodes (default:
#               OUT.db's folder + /shards); job logs go there too
#   -b OOMLENS  the oomlens binary, as the nodes see it (default: the one
#               on PATH here)
#   -w          wait until the merge job has ended; its exit status
#   SBATCH_OPTION...  passed to both sbatch calls (--partition=..., --time=...)
#
# Prints the two job ids. The merge job waits for every array task to end
# well (afterok) and is cancelled when one fails; fix the cause and submit
# again: the shards already done are ingested again quickly (idempotent),
# and the merge of what exists is idempotent too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=16 outdir='' oomlens='' wait=''
while getopts n:o:b:w opt; do
	case $opt in
	n) n=$OPTARG ;;
	o) outdir=$OPTARG ;;
	b) oomlens=$OPTARG ;;
	w) wait=--wait ;;
	*) sed -n '5,14p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '5,14p' "$0" >&2; exit 2; }
list=$1 out=$2
shift 2
case $n in '' | *[!0-9]* | 0) echo "slurm-submit: -n wants a number above 0" >&2; exit 2 ;; esac
[ -r "$list" ] || { echo "slurm-submit: cannot read '$list'" >&2; exit 2; }
oomlens=${oomlens:-$(command -v oomlens || :)}
[ -n "$oomlens" ] || { echo "slurm-submit: no oomlens on PATH: give -b" >&2; exit 2; }
case $oomlens in /*) ;; *) oomlens=$(cd "$(dirname "$oomlens")" && pwd)/$(basename "$oomlens") ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
case $list in /*) ;; *) list=$(pwd)/$list ;; esac
outdir=${outdir:-$(dirname "$out")/shards}
case $outdir in /*) ;; *) outdir=$(pwd)/$outdir ;; esac
mkdir -p "$outdir"

array=$(sbatch --parsable --array=0-$((n - 1)) --output="$outdir/ingest-%A_%a.out" \
	"$@" "$here/slurm-ingest.sbatch" "$here/ingest-shard.sh" "$list" "$outdir" "$oomlens")
array=${array%%;*}
echo "ingest array: job $array ($n tasks)"
# shellcheck disable=SC2086 # $wait is empty or one word
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
	--output="$outdir/merge-%j.out" $wait "$@" \
	"$here/slurm-merge.sbatch" "$outdir" "$n" "$out" "$oomlens") || {
	status=$?
	[ -n "$wait" ] || exit "$status"
	echo "merge job failed (exit $status): see $outdir/merge-*.out and $outdir/ingest-${array}_*.out" >&2
	exit "$status"
}
merge=${merge%%;*}
echo "merge: job $merge (after $array) -> $out"
if [ -n "$wait" ]; then
	# sbatch --wait says 0 for a job cancelled before it ran (a shard
	# failed): ask how it ended
	state=$(scontrol show job -o "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	if [ "$state" != COMPLETED ]; then
		echo "merge job $merge ended ${state:-unknown}: a shard failed? see $outdir/ingest-${array}_*.out" >&2
		exit 1
	fi
fi
