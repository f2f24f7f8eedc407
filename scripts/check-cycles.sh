#!/bin/sh
# SPDX-License-Identifier: MIT
#
# scripts/check-cycles.sh BUILDDIR: fail on a call cycle between the
# project's files, or between its modules (`make check-cycles`).
#
# gcc's -fcallgraph-info wrote one .ci file (VCG) per object under BUILDDIR:
# for each function the file defines, a node with its definition's place,
# and an edge for each call it makes. A function is placed in the .c file
# that defines it; a call from file A to a function defined in file B is an
# edge A -> B (and module(A) -> module(B), a module being the top folder).
# coreutils' tsort finds the loops in each graph. Calls through function
# pointers (sinks, callbacks) are no edges: they are no dependency of the
# caller's file on the callee's.
#
# A cycle listed in scripts/cycles-known (one per line: its files, sorted,
# space-separated; '#' starts a comment) is reported but does not fail:
# each line there is a NEEDSWORK with its owner. A listed cycle that is no
# longer found is said, so that its line goes.
set -eu

build=${1:?usage: check-cycles.sh BUILDDIR}
root=$(pwd)
known=$root/scripts/cycles-known
tmp=$(mktemp -d)
trap '[ -n "${CYCLES_KEEP:-}" ] && echo "$tmp" >&2 || rm -rf "$tmp"' EXIT

find "$build" -name '*.ci' | sort >"$tmp/files"
[ -s "$tmp/files" ] || { echo "check-cycles: no .ci files in $build" >&2; exit 1; }

# file edges "A B" (A calls into B), project files only, paths relative
xargs cat <"$tmp/files" | awk -v root="$root/" '
function rel(p) { if (index(p, root) == 1) p = substr(p, length(root) + 1); return p }
/^graph: / { split($0, g, "\""); file = rel(g[2]); next }
/^node: / {
	split($0, q, "\"")
	title = q[2]; label = q[4]
	if ($0 ~ /shape : ellipse/) next      # declared here, defined elsewhere
	n = split(label, l, "\\\\n"); where = l[2]
	sub(/:[0-9]+:[0-9]+$/, "", where)
	if (index(title, ":") == 0) def[title] = rel(where)
	next
}
/^edge: / {
	split($0, q, "\"")
	src = q[2]; dst = q[4]
	if (index(dst, ":")) next             # a static function of this file
	calls[file SUBSEP dst] = 1
	next
}
END {
	for (k in calls) {
		split(k, p, SUBSEP)
		if (def[p[2]] == "") continue       # libc and libraries
		a = p[1]; b = def[p[2]]
		if (a == b || a !~ /^(core|model|parsers|dumps|analyzer|db|reports|ingest|cli)\//) continue
		print a, b
	}
}' | sort -u >"$tmp/file-edges"

sed 's#/[^ ]*##g' "$tmp/file-edges" | awk '$1 != $2' | sort -u >"$tmp/module-edges"

# tsort names one loop's members per "input contains a loop" message.
loops() {
	if tsort "$1" >/dev/null 2>"$tmp/tsort"; then
		return
	fi
	grep -q 'input contains a loop' "$tmp/tsort" ||
		{ cat "$tmp/tsort" >&2; exit 1; }
	awk '
	/input contains a loop/ { if (n) print line; line = ""; n = 0; next }
	{ sub(/^tsort: /, ""); line = line (n++ ? " " : "") $0 }
	END { if (n) print line }' "$tmp/tsort" |
		while read -r members; do
			printf '%s\n' $members | sort | paste -sd' ' -
		done | sort -u
}

status=0
for kind in file module; do
	loops "$tmp/$kind-edges" >"$tmp/$kind-loops"
	while read -r cycle; do
		[ -n "$cycle" ] || continue
		if [ -f "$known" ] && grep -v '^#' "$known" | grep -qxF "$cycle"; then
			echo "cycles: known $kind cycle (scripts/cycles-known): $cycle"
		else
			echo "cycles: $kind cycle: $cycle" >&2
			# the calls that make it, for the one who breaks it
			for a in $cycle; do
				for b in $cycle; do
					grep -qxF "$a $b" "$tmp/$kind-edges" &&
						echo "  $a -> $b" >&2
				done
			done
			status=1
		fi
	done <"$tmp/$kind-loops"
done
if [ -f "$known" ]; then
	grep -v '^#' "$known" | while read -r cycle; do
		[ -n "$cycle" ] || continue
		cat "$tmp/file-loops" "$tmp/module-loops" | grep -qxF "$cycle" ||
			echo "cycles: '$cycle' is no longer a cycle: remove it from scripts/cycles-known"
	done
fi
n_files=$(cut -d' ' -f1 "$tmp/file-edges" | sort -u | wc -l)
n_edges=$(wc -l <"$tmp/file-edges")
[ $status = 0 ] && echo "cycles ok ($n_edges calls between $n_files files)"
exit $status
