# Parser worker threads (issue 16), sourced by tests/e2e.sh. Whatever the
# threads, ingest stores what one parser stores, row for row and id for
# id (tests/db-canon.sh --ids), and says the same warnings and skips in the same
# order: --jobs 2 against --jobs 1 on a folder with archives, and every log
# of fixtures/ (and ../shared/real-logs, when there) split into 4 KiB
# chunks (OOMLENS_SPLIT_BYTES) parsed by two workers.
expect 2 "ingest: --jobs 0" -- "$bin" ingest --jobs 0 --db "$tmp/j0.db" fixtures/demo
grep -q "bad --jobs '0'" "$tmp/err" && ok || bad "ingest: --jobs 0 said"
expect 2 "ingest: --jobs x" -- "$bin" ingest --jobs x --db "$tmp/j0.db" fixtures/demo
# same_ingest NAME A B: databases A.db and B.db, stderr A.err and B.err
same_ingest() {
	tests/db-canon.sh --ids "$tmp/$2.db" >"$tmp/$2.rows"
	tests/db-canon.sh --ids "$tmp/$3.db" >"$tmp/$3.rows"
	[ -s "$tmp/$2.rows" ] && cmp -s "$tmp/$2.rows" "$tmp/$3.rows" && ok ||
		{ bad "$1: the same rows"; diff "$tmp/$2.rows" "$tmp/$3.rows" | head -5; }
	"$bin" report --db "$tmp/$2.db" --format json >"$tmp/$2.json" 2>&1
	"$bin" report --db "$tmp/$3.db" --format json >"$tmp/$3.json" 2>&1
	cmp -s "$tmp/$2.json" "$tmp/$3.json" && ok || bad "$1: the same report"
	# all but the summary's time and the split counts
	grep -v "sources read (\|^oomlens ingest: split " "$tmp/$2.err" >"$tmp/$2.said"
	grep -v "sources read (\|^oomlens ingest: split " "$tmp/$3.err" >"$tmp/$3.said"
	cmp -s "$tmp/$2.said" "$tmp/$3.said" && ok ||
		{ bad "$1: the same said"; diff "$tmp/$2.said" "$tmp/$3.said" | head -5; }
}
"$bin" ingest --jobs 1 --db "$tmp/fold1.db" fixtures/sos fixtures/demo fixtures/journal 2>"$tmp/fold1.err"
st1=$?
"$bin" ingest --jobs 2 --db "$tmp/fold2.db" fixtures/sos fixtures/demo fixtures/journal 2>"$tmp/fold2.err"
[ $? = "$st1" ] && ok || bad "ingest --jobs 2: the status of --jobs 1"
same_ingest "ingest --jobs 2 of a folder with archives" fold1 fold2
split_logs=fixtures
[ -d ../shared/real-logs ] && split_logs="$split_logs ../shared/real-logs"
# shellcheck disable=SC2086 # the folders
"$bin" ingest --jobs 1 --db "$tmp/one.db" $split_logs 2>"$tmp/one.err"
st1=$?
# shellcheck disable=SC2086
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest --jobs 2 --db "$tmp/split.db" $split_logs 2>"$tmp/split.err"
[ $? = "$st1" ] && ok || bad "split ingest: the status of --jobs 1"
same_ingest "logs split in 4 KiB chunks" one split
# it did split, and the cuts were not all read over
sed -n 's/^oomlens ingest: split \([0-9]*\) files into \([0-9]*\) chunks, read on over \([0-9]*\) cuts$/\1 \2 \3/p' \
	"$tmp/split.err" >"$tmp/split.counts"
read -r sf sc sr <"$tmp/split.counts" && [ "$sf" -gt 50 ] && [ "$sc" -gt $((sf + sr)) ] && ok ||
	{ bad "split ingest: files split, cuts kept"; cat "$tmp/split.counts"; }
# a second split ingest adds nothing
cp "$tmp/split.rows" "$tmp/split1.rows"
# shellcheck disable=SC2086
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest -q --jobs 2 --db "$tmp/split.db" $split_logs 2>/dev/null
tests/db-canon.sh --ids "$tmp/split.db" | cmp -s - "$tmp/split1.rows" && ok || bad "split ingest: again adds nothing"
# a fork-bomb warning on a line of its own, its report's trigger on the
# next (a cut): the chunk before reads on, so the report keeps the warning
{
	i=0
	while [ $i -lt 120 ]; do
		echo "[Tue Nov  3 12:00:00 2026] eth0: link is up, line $i"
		i=$((i + 1))
	done
	sed 's/^\(\[[^]]*\] \)Possible fork-bomb detected : \([0-9]*([^)]*)\)/\1Possible fork-bomb detected : \2\n\1/' \
		fixtures/generated/forkbomb.2.6.32-rfc.dmesg-T-en.log
} >"$tmp/fb-split.log"
touch -d "1 hour ago" "$tmp/fb-split.log" # an mtime old enough to trust, however slow the run
"$bin" ingest -q --jobs 1 --db "$tmp/fb1.db" "$tmp/fb-split.log" 2>"$tmp/fb1.err"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest -q --jobs 2 --db "$tmp/fb2.db" "$tmp/fb-split.log" 2>"$tmp/fb2.err"
same_ingest "a fork-bomb warning before a cut" fb1 fb2
grep -q "^forkbomb_warnings|.*|6001|bomb|" "$tmp/fb2.rows" && ok || bad "split ingest: the fork-bomb warning kept"
grep -q "split 1 files into 2 chunks, read on over 1 cuts" "$tmp/fb2.err" && ok ||
	{ bad "split ingest: read on over the cut after a fork-bomb warning"; cat "$tmp/fb2.err"; }
# a compressed log cut short: the warnings before the cut are said, then
# the skip (the batch that held them is not stored)
{
	printf '[    1.000000] a\000b line with a NUL\n'
	i=0
	while [ $i -lt 20000 ]; do
		echo "[    2.000000] filler line number $i with some text"
		i=$((i + 1))
	done
} | gzip -c >"$tmp/whole.log.gz"
head -c $(($(wc -c <"$tmp/whole.log.gz") / 2)) "$tmp/whole.log.gz" >"$tmp/cut.log.gz"
expect 2 "ingest: a gzip cut short" -- "$bin" ingest --jobs 2 --db "$tmp/cut.db" "$tmp/cut.log.gz"
grep -q "cut.log.gz:1: 1 NUL bytes inside the text" "$tmp/err" && grep -q "skipped '$tmp/cut.log.gz'" "$tmp/err" && ok ||
	{ bad "ingest: a gzip cut short says its warning and the skip"; cat "$tmp/err"; }
# a boot time learnt in one chunk (a syslog date and an uptime) times a
# report of the next that states only its uptime (no release stated, so
# that the first chunk stops at the cut whatever the threads' timing)
cat fixtures/generated/memcg.5.8.syslog.log fixtures/generated/cpuset.5.15.raw.log |
	grep -v "Not tainted" >"$tmp/boot-split.log"
touch -d "1 hour ago" "$tmp/boot-split.log" # an mtime old enough to trust, however slow the run
"$bin" ingest -q --jobs 1 --db "$tmp/boot1.db" "$tmp/boot-split.log" 2>"$tmp/boot1.err"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest -q --jobs 2 --db "$tmp/boot2.db" "$tmp/boot-split.log" 2>"$tmp/boot2.err"
same_ingest "a boot time learnt in the chunk before" boot1 boot2
grep -q "split 1 files into 2 chunks, read on over 0 cuts" "$tmp/boot2.err" &&
	[ "$(sqlite3 "$tmp/boot2.db" "SELECT time_source FROM incidents WHERE id = 2")" = syslog+uptime ] && ok ||
	{ bad "split ingest: the next chunk's report timed by the boot time"; cat "$tmp/boot2.err"; }
# a line of 1.3 MB ended by carriage returns, which linesrc reads as many:
# newlines no longer count lines after it, so the chunk before it reads on
# to the end
cr_line() {
	i=0
	while [ $i -lt 30000 ]; do
		printf '[ 9200.000000] filler line %s of a console\r' $i
		i=$((i + 1))
	done
	echo
}
{
	cat fixtures/generated/cpuset.5.15.raw.log
	cr_line
	cat fixtures/generated/memcg.5.8.syslog.log
	sed 's/9120/9300/' fixtures/generated/cpuset.5.15.raw.log
} >"$tmp/long-split.log"
touch -d "1 hour ago" "$tmp/long-split.log" # an mtime old enough to trust, however slow the run
"$bin" ingest -q --jobs 1 --db "$tmp/long1.db" "$tmp/long-split.log" 2>"$tmp/long1.err"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest -q --jobs 2 --db "$tmp/long2.db" "$tmp/long-split.log" 2>"$tmp/long2.err"
same_ingest "a line of megabytes before a cut" long1 long2
grep -q "split 1 files into [3-9] chunks, read on over [2-9] cuts" "$tmp/long2.err" && ok ||
	{ bad "split ingest: read on after a line of megabytes"; cat "$tmp/long2.err"; }
# the same with the chunk before the long line's cut short and the one
# before it long (a report of 20,000 tasks): the long line's chunk reaches
# its cut while the other worker still parses, so the chunk after it has
# not run, and only the read-on at the cut can take it in (above, that
# chunk may run first and leave the read-on to its own check)
{
	awk '{ print } /\[  pid  \]/ { for (i = 0; i < 20000; i++)
		printf "[ 9120.012900] [ %6d]  1000 %6d    12345      678    40960        0             0 filler%d\n", 20000 + i, 20000 + i, i }' \
		fixtures/generated/cpuset.5.15.raw.log
	cat fixtures/generated/memcg.5.8.syslog.log
	cr_line
	sed 's/9120/9300/' fixtures/generated/cpuset.5.15.raw.log
} >"$tmp/long-late.log"
touch -d "1 hour ago" "$tmp/long-late.log" # an mtime old enough to trust, however slow the run
"$bin" ingest -q --jobs 1 --db "$tmp/late1.db" "$tmp/long-late.log" 2>"$tmp/late1.err"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest -q --jobs 2 --db "$tmp/late2.db" "$tmp/long-late.log" 2>"$tmp/late2.err"
same_ingest "a line of megabytes, its chunk done first" late1 late2
grep -q "split 1 files into 3 chunks, read on over 1 cuts" "$tmp/late2.err" && ok ||
	{ bad "split ingest: read on at the cut after a line of megabytes"; cat "$tmp/late2.err"; }
# a file just written (its mtime too recent to trust) is hashed while its
# chunks are parsed: read again, the hash finds it done and what its
# chunks gave is dropped
# (an mtime an hour ahead stays too recent to trust however long the first
# run takes on a loaded machine; a real one would be trusted 2 s on, and
# the second run would record it)
cat fixtures/generated/*.syslog.log >"$tmp/fresh.log"
touch -d "@$(($(date +%s) + 3600))" "$tmp/fresh.log"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest --jobs 2 --db "$tmp/fresh.db" "$tmp/fresh.log" 2>"$tmp/fresh1.err"
tests/db-canon.sh --ids "$tmp/fresh.db" >"$tmp/fresh1.rows"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest --jobs 2 --db "$tmp/fresh.db" "$tmp/fresh.log" 2>"$tmp/fresh2.err"
grep -q "0 sources read .* 1 already ingested, 0 skipped; 0 incidents" "$tmp/fresh2.err" &&
	grep -q "^oomlens ingest: split 1 files" "$tmp/fresh2.err" &&
	tests/db-canon.sh --ids "$tmp/fresh.db" | cmp -s - "$tmp/fresh1.rows" && ok ||
	{ bad "split ingest: a fresh file read again is already ingested"; cat "$tmp/fresh2.err"; }
# the same content under a new mtime old enough to trust: the hash finds
# it done, its chunks are dropped before the new mtime is recorded (the
# writer waited for them while the recording waited for the writer: a
# hang), and the next run finds it by the shortcut, without hashing
touch -d '2020-01-01 00:00:00' "$tmp/fresh.log"
OOMLENS_SPLIT_BYTES=4096 timeout 60 "$bin" ingest --jobs 2 --db "$tmp/fresh.db" "$tmp/fresh.log" 2>"$tmp/fresh3.err"
grep -q "0 sources read .* 1 already ingested, 0 skipped; 0 incidents" "$tmp/fresh3.err" &&
	tests/db-canon.sh --ids "$tmp/fresh.db" | grep -v '^sources|' >"$tmp/fresh3.rows" &&
	grep -v '^sources|' "$tmp/fresh1.rows" | cmp -s - "$tmp/fresh3.rows" && ok ||
	{ bad "split ingest: known content, new mtime: already ingested"; cat "$tmp/fresh3.err"; }
OOMLENS_SPLIT_BYTES=4096 timeout 60 "$bin" ingest --jobs 2 --db "$tmp/fresh.db" "$tmp/fresh.log" 2>"$tmp/fresh4.err"
grep -q "0 sources read .* 1 already ingested" "$tmp/fresh4.err" &&
	grep -q "^oomlens ingest: split 0 files" "$tmp/fresh4.err" && ok ||
	{ bad "split ingest: the new mtime recorded"; cat "$tmp/fresh4.err"; }
# the same for a file read as one job, which a worker parses while the
# file is hashed: read again under an old mtime, its job is dropped
cp "$tmp/fresh.log" "$tmp/whole.log"
"$bin" ingest --jobs 2 --db "$tmp/whole.db" "$tmp/whole.log" 2>"$tmp/whole1.err"
tests/db-canon.sh --ids "$tmp/whole.db" | grep -v '^sources|' >"$tmp/whole1.rows"
touch -d '2020-01-01 00:00:00' "$tmp/whole.log"
timeout 60 "$bin" ingest --jobs 2 --db "$tmp/whole.db" "$tmp/whole.log" 2>"$tmp/whole2.err"
grep -q "0 sources read .* 1 already ingested, 0 skipped; 0 incidents" "$tmp/whole2.err" &&
	tests/db-canon.sh --ids "$tmp/whole.db" | grep -v '^sources|' | cmp -s - "$tmp/whole1.rows" &&
	[ "$(sqlite3 "$tmp/whole.db" 'SELECT count(*) FROM sources WHERE mtime_ns > 0')" = 1 ] && ok ||
	{ bad "ingest --jobs 2: known content, new mtime: already ingested"; cat "$tmp/whole2.err"; }
# read once (issue 25.2): a plain file read as one job is hashed by its
# worker as its parser reads it, each byte read once; a split one by the
# pass that hands its chunks over. Either way its identity is the hash
# of all of its bytes, the one --jobs 1 makes before it parses the file.
cat fixtures/generated/*.syslog.log fixtures/generated/*.raw.log >"$tmp/once.log"
touch -d "1 hour ago" "$tmp/once.log"
"$bin" ingest -q --jobs 1 --db "$tmp/once1.db" "$tmp/once.log" 2>"$tmp/once1.err"
"$bin" ingest -q --jobs 2 --db "$tmp/once2.db" "$tmp/once.log" 2>"$tmp/once2.err"
OOMLENS_SPLIT_BYTES=4096 "$bin" ingest -q --jobs 2 --db "$tmp/once3.db" "$tmp/once.log" 2>"$tmp/once3.err"
h1=$(sqlite3 "$tmp/once1.db" 'SELECT content_xxh128 FROM sources')
h2=$(sqlite3 "$tmp/once2.db" 'SELECT content_xxh128 FROM sources')
h3=$(sqlite3 "$tmp/once3.db" 'SELECT content_xxh128 FROM sources')
expr "$h1" : '[0-9a-f]\{32\}$' >/dev/null && [ "$h2" = "$h1" ] && ok ||
	bad "read once: a file's identity is the hash of its bytes ($h1, $h2)"
grep -q "^oomlens ingest: split 1 files" "$tmp/once3.err" && [ "$h3" = "$h1" ] && ok ||
	{ bad "read once: a split file's identity is the hash of its bytes ($h3)"; cat "$tmp/once3.err"; }
same_ingest "read once: one job and one parser" once1 once2
# changed after it was read (one byte, the size kept): its worker's hash
# tells it from the one stored, and it is read again
sed '1s/^./X/' "$tmp/once.log" >"$tmp/once.new" && mv "$tmp/once.new" "$tmp/once.log"
touch -d "1 hour ago" "$tmp/once.log"
"$bin" ingest --jobs 2 --db "$tmp/once2.db" "$tmp/once.log" 2>"$tmp/once4.err"
grep -q "1 sources read .* 0 already ingested" "$tmp/once4.err" &&
	[ "$(sqlite3 "$tmp/once2.db" 'SELECT count(DISTINCT content_xxh128) FROM sources')" = 2 ] && ok ||
	{ bad "read once: a changed file is read again"; cat "$tmp/once4.err"; }
# read once (issue 25.2): the pass that hashes a split file counts the
# lines before each cut in the block it has just read, reading nothing
# again: on the main thread, no pread of the log once the pass has begun
# (its reads of 1 MiB; strace -y names each descriptor's file)
if strace -o /dev/null true 2>/dev/null; then
	OOMLENS_SPLIT_BYTES=4096 strace -f -y -e trace=read,pread64 -o "$tmp/once.strace" \
		"$bin" ingest -q --jobs 2 --db "$tmp/once5.db" "$tmp/once.log" 2>"$tmp/once5.err"
	again=$(awk -v f="$tmp/once.log>" 'NR == 1 { main = $1 }
		$1 != main || index($0, f) == 0 { next }
		$2 ~ /^read\(/ && /, 1048576\) = / { pass = 1 }
		pass && $2 ~ /^pread64\(/ { n++ }
		END { print (pass ? n + 0 : "none") }' "$tmp/once.strace")
	grep -q "^oomlens ingest: split 1 files" "$tmp/once5.err" && [ "$again" = 0 ] && ok ||
		{ bad "read once: the split pass reads the log again ($again preads)"; cat "$tmp/once5.err"; }
fi
# a log of more reports than the batches hold: its batches wait for the
# hash, which its worker then makes ahead of its parser (the rest of the
# file read for it), else the writer and the worker wait for each other
fixtures/gen/oomgen --corpus dense --reports 1500 >"$tmp/once-dense.log" 2>/dev/null
touch -d "1 hour ago" "$tmp/once-dense.log"
"$bin" ingest -q --jobs 1 --db "$tmp/dense1.db" "$tmp/once-dense.log" 2>"$tmp/dense1.err"
timeout 120 "$bin" ingest -q --jobs 2 --db "$tmp/dense2.db" "$tmp/once-dense.log" 2>"$tmp/dense2.err"
[ $? = 0 ] && ok || bad "read once: a dense log, its batches held for the hash"
same_ingest "read once: a dense log" dense1 dense2

# rescore on every core: the verdicts stored with --jobs 4 are those of
# --jobs 1, row for row, and a run over them again leaves them be
rj=$tmp/rescore-jobs
mkdir -p "$rj"
expect 0 "rescore --jobs: ingest" -- "$bin" ingest --quiet --db "$rj/a.db" fixtures/demo fixtures/kernel-output fixtures/formats
cp "$rj/a.db" "$rj/b.db"
expect 0 "rescore --jobs 1" -- "$bin" rescore --force --jobs 1 --db "$rj/a.db" --model all
expect 0 "rescore --jobs 4" -- "$bin" rescore --force --jobs 4 --db "$rj/b.db" --model all
grep -q ": [1-9][0-9]* incidents rescored, [1-9][0-9]* verdicts stored; 0 already scored" "$tmp/err" && ok || { bad "rescore --jobs 4: every incident"; cat "$tmp/err"; }
if command -v sqlite3 >/dev/null 2>&1; then
	q="SELECT incident_id, model, model_version, victim_pid, score, runner_up_pid, certainty, formula_evidence FROM model_verdicts ORDER BY incident_id, model"
	sqlite3 "$rj/a.db" "$q" >"$rj/a.txt"
	sqlite3 "$rj/b.db" "$q" >"$rj/b.txt"
	[ -s "$rj/a.txt" ] && cmp -s "$rj/a.txt" "$rj/b.txt" && ok || { bad "rescore --jobs 4 stores what --jobs 1 does"; diff "$rj/a.txt" "$rj/b.txt" | head; }
fi
expect 0 "rescore --jobs 4, again" -- "$bin" rescore --jobs 4 --db "$rj/b.db" --model all
grep -q ": [0-9]* incidents rescored, 0 verdicts stored; [1-9][0-9]* already scored" "$tmp/err" && ok || { bad "rescore --jobs 4: nothing again"; cat "$tmp/err"; }
expect 2 "rescore --jobs 0" -- "$bin" rescore --jobs 0 --db "$rj/b.db"
grep -q "^oomlens rescore: --jobs takes 1 to [0-9]*, not '0'" "$tmp/err" && ok || { bad "rescore --jobs 0 said"; cat "$tmp/err"; }
