#!/bin/bash
# make mutants: plant each single-field mistake of scripts/mutants.txt, one at
# a time, in a scratch copy of the tree, and see whether `make check` fails.
# A mutant that `make check` does not catch "survived"; the list states, for
# each one that is known to survive, why it is harmless.
#
#   scripts/mutants.sh [LIST]         every mutant of LIST (scripts/mutants.txt)
#   MUTANTS="3 7" scripts/mutants.sh  only those, by number
#   MUTANT_TIMEOUT=900                seconds one mutant may take (build+check)
#   MUTANT_KEEP=1                     keep the scratch copy (its path is printed)
#   MUTANT_DRY=1                      only check that every mutant applies
#
# LIST holds blocks separated by blank lines, '#' lines are comments:
#   mutant: what the mistake is, as a reviewer would say it
#   file: path/from/the/root.c
#   from: a snippet that occurs exactly once in the file (one line)
#   to: what it becomes
#   harmless: (only for a known survivor) why it does not matter
# A snippet is matched after trimming its leading and trailing blanks;
# {NL} and {TAB} in it stand for a newline and a tab.
#
# Exit status: 0 when at least 95 % are caught and every mutant applied and
# built; 1 otherwise. The summary table goes to stdout, each mutant's
# `make check` output to SCRATCH/logs/N.log.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$root/scripts/mutants.txt}
timeout_s=${MUTANT_TIMEOUT:-900}
jobs=${MUTANT_JOBS:-2}
want=" ${MUTANTS:-} "

scratch=$(mktemp -d "${TMPDIR:-/tmp}/oomlens-mutants.XXXXXX")
cleanup() { [ -n "${MUTANT_KEEP:-}" ] || rm -rf "$scratch"; }
trap cleanup EXIT
mkdir -p "$scratch/tree" "$scratch/logs"

# The tree as committed plus what is not yet: every tracked file, no build.
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
	tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$scratch/tree" ||
	{ echo "mutants: cannot copy the tree" >&2; exit 1; }
cd "$scratch/tree" || exit 1
# the real-log suites read ../shared beside the tree
[ -e "$root/../shared" ] && ln -s "$root/../shared" "$scratch/shared"

echo "mutants: baseline build and check in $scratch/tree"
if [ -n "${MUTANT_DRY:-}" ]; then
	:
elif ! timeout "$timeout_s" make -j"$jobs" check >"$scratch/logs/baseline.log" 2>&1; then
	echo "mutants: the unmutated tree fails make check; see $scratch/logs/baseline.log" >&2
	MUTANT_KEEP=1
	exit 1
fi

# Parse the list into parallel arrays.
n=0
declare -a M_DESC M_FILE M_FROM M_TO M_HARMLESS
flush() {
	[ -n "${desc:-}" ] || return 0
	n=$((n + 1))
	M_DESC[$n]=$desc M_FILE[$n]=$file M_FROM[$n]=$from M_TO[$n]=$to
	M_HARMLESS[$n]=${harmless:-}
	desc= file= from= to= harmless=
}
desc= file= from= to= harmless=
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'#'*) ;;
	'') flush ;;
	mutant:*) desc=${line#mutant:} desc=${desc# } ;;
	file:*) file=${line#file:} file=${file// /} ;;
	from:*) from=${line#from:} ;;
	to:*) to=${line#to:} ;;
	harmless:*) harmless=${line#harmless:} harmless=${harmless# } ;;
	*) echo "mutants: $list: cannot read '$line'" >&2; exit 1 ;;
	esac
done <"$list"
flush

# Replace the one occurrence of FROM by TO in FILE (perl: literal, no regex).
apply() {
	FROM=$2 TO=$3 perl -0777 -i -e '
		my $s = <>; my ($f, $t) = ($ENV{FROM}, $ENV{TO});
		s/^\s+//, s/\s+$//, s/\{NL\}/\n/g, s/\{TAB\}/\t/g for $f, $t;
		my $i = index($s, $f);
		exit 2 if $i < 0 || index($s, $f, $i + 1) >= 0;
		substr($s, $i, length $f) = $t; print $s;' "$1"
}

caught=0 survived=0 broken=0 ran=0
printf '%-4s %-10s %-9s %5s  %s\n' "N" "area" "result" "secs" "mutant"
for i in $(seq 1 "$n"); do
	case $want in "  ") ;; *" $i "*) ;; *) continue ;; esac
	f=${M_FILE[$i]}
	case $f in
	dumps/vmcore* | dumps/kcore* | dumps/kdwarf*) area=vmcore ;;
	parsers/*) area=parsers ;;
	db/*) area=store ;;
	reports/*) area=renderers ;;
	analyzer/* | model/*) area=models ;;
	*) area=${f%%/*} ;;
	esac
	cp "$root/$f" "$f.orig" 2>/dev/null || { echo "mutants: no file $f" >&2; exit 1; }
	cp "$f.orig" "$f"
	start=$(date +%s)
	if ! apply "$f" "${M_FROM[$i]}" "${M_TO[$i]}" 2>/dev/null; then
		result=stale
		broken=$((broken + 1))
	elif [ -n "${MUTANT_DRY:-}" ]; then
		result=applies
		caught=$((caught + 1))
	elif ! timeout "$timeout_s" make -j"$jobs" oomlens build/tests/run >"$scratch/logs/$i.log" 2>&1; then
		result=no-build
		broken=$((broken + 1))
	elif timeout "$timeout_s" make -j"$jobs" check >>"$scratch/logs/$i.log" 2>&1; then
		result=SURVIVED
		survived=$((survived + 1))
	else
		result=caught
		caught=$((caught + 1))
	fi
	ran=$((ran + 1))
	# restore with a fresh mtime, so that make rebuilds what the mutant built
	cp "$f.orig" "$f" && rm -f "$f.orig" && touch "$f"
	printf '%-4s %-10s %-9s %5s  %s\n' "$i" "$area" "$result" \
		"$(($(date +%s) - start))" "${M_DESC[$i]}"
	if [ "$result" = SURVIVED ]; then
		echo "       harmless: ${M_HARMLESS[$i]:-(no reason stated: a test is missing)}"
	fi
done

echo
pct=0
[ "$ran" -gt 0 ] && pct=$((caught * 100 / ran))
echo "mutants: $caught caught, $survived survived, $broken stale or unbuildable, of $ran ($pct % caught)"
[ -n "${MUTANT_KEEP:-}" ] && echo "mutants: scratch kept in $scratch"
if [ "$broken" -gt 0 ] || [ $((caught * 100)) -lt $((ran * 95)) ]; then
	exit 1
fi
exit 0
