#!/bin/sh
# scripts/fleet/ingest-shard.sh LIST NSHARDS INDEX OUTDIR [OOMLENS]
#
# Ingest shard INDEX (0 to NSHARDS-1) of the file list LIST (one path a
# line; absolute paths, so that every shard names a file as one ingest
# would) into a database of its own on local scratch, then copy it to
# OUTDIR/shard-INDEX.db. Shard INDEX is lines INDEX+1, INDEX+1+NSHARDS, ...
# of LIST. The database is built in ${TMPDIR:-/tmp} (Slurm's job-local
# scratch when the site sets TMPDIR to it) and moved to OUTDIR only when
# whole: a shard that failed leaves nothing there. Run again, it
# completes what was cut short (oomlens ingest is idempotent).
#
# Used by slurm-ingest.sbatch (one array task per shard) and parallel.sh;
# see README.md, "Many machines".
set -eu
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
	echo "usage: ingest-shard.sh LIST NSHARDS INDEX OUTDIR [OOMLENS]" >&2
	exit 2
fi
list=$1 n=$2 i=$3 outdir=$4 oomlens=${5:-oomlens}
case $n$i in *[!0-9]*) echo "ingest-shard.sh: NSHARDS and INDEX are numbers" >&2; exit 2 ;; esac
[ "$i" -lt "$n" ] || { echo "ingest-shard.sh: INDEX $i not below NSHARDS $n" >&2; exit 2; }
[ -r "$list" ] || { echo "ingest-shard.sh: cannot read '$list'" >&2; exit 2; }
mkdir -p "$outdir"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/oomlens-shard.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM HUP

awk -v n="$n" -v i="$i" 'NF && (NR - 1) % n == i' "$list" >"$scratch/files"
status=0
if [ -s "$scratch/files" ]; then
	# one argument per line: the list holds no newlines in names
	tr '\n' '\0' <"$scratch/files" |
		xargs -0 "$oomlens" ingest --quiet --db "$scratch/shard.db" || status=$?
else
	# an empty shard still makes an (empty) database, so that the merge
	# finds every shard it waits for
	mkdir "$scratch/none"
	"$oomlens" ingest --quiet --db "$scratch/shard.db" "$scratch/none" || status=$?
fi
# exit 2 (123 from xargs) is also a file that could not be read (skipped and said above,
# the rest stored): the shard is kept if its database is sound
case $status in
0) ;;
2 | 123) "$oomlens" report --check --db "$scratch/shard.db" >/dev/null && echo "ingest-shard.sh: shard $i of $n: some files skipped (see above)" >&2 || status=1 ;;
*) status=1 ;;
esac
if [ "$status" = 1 ]; then
	echo "ingest-shard.sh: shard $i of $n failed" >&2
	exit 1
fi
cp "$scratch/shard.db" "$outdir/.shard-$i.db.tmp"
mv "$outdir/.shard-$i.db.tmp" "$outdir/shard-$i.db"
echo "ingest-shard.sh: shard $i of $n: $(wc -l <"$scratch/files") files -> $outdir/shard-$i.db" >&2
